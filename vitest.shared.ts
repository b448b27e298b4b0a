// Shared by every vitest project: the repository's packages resolve to their sources through the
// `@exchange-api/source` export condition, so tests never run a stale dist/ (the consumer test in
// test/consumer runs the built, packed packages instead).
import { defaultServerConditions, defaultClientConditions } from 'vite';
import { BaseSequencer, type TestSequencerConstructor, type TestSpecification } from 'vitest/node';

export const SOURCE_CONDITION = '@exchange-api/source';

/** Resolve options that put the source condition ahead of the defaults, in Node and in browser builds. */
export const sourceResolve = {
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: {
    resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions], externalConditions: [SOURCE_CONDITION] },
  },
};

/**
 * Every project's default bounds on a test and a hook. They stop a hang, they do not judge speed: a
 * loaded 2-core CI machine runs a case many times slower than a quiet one (a setup hook that builds our
 * spec's model took 23 s there), and a test that fails for that fails a correct change. A promise about
 * time is a benchmark's (tools/bench), measured as a ratio against a control.
 */
export const hangBounds = { testTimeout: 120_000, hookTimeout: 180_000 };

/**
 * A sequencer that starts the named files first, in the order given, then the rest as vitest orders them
 * (by their last duration when it knows them, else larger files first). A fresh clone (CI) has no
 * durations, and a long file that starts last is the run's tail: name a project's longest files, longest
 * first, as measured, with `sequence: { sequencer: longestFirst([...]) }`.
 */
export function longestFirst(files: string[]): TestSequencerConstructor {
  return class extends BaseSequencer {
    override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (s: TestSpecification) => {
        const at = files.findIndex((f) => s.moduleId.endsWith(`/${f}`));
        return at < 0 ? files.length : at;
      };
      const rest = await super.sort(specs.filter((s) => rank(s) === files.length));
      return [...specs.filter((s) => rank(s) < files.length).sort((a, b) => rank(a) - rank(b)), ...rest];
    }
  };
}

/**
 * The fast lane, `npm run test:fast`: the inner loop's tests. The packages', the generator's and the evidence's
 * own tests from their sources: no build (none of the root config's global setup), no child process, no
 * browser, no packing, and not test/ (the cross-package end-to-end tests). About a minute on a quiet
 * 2-core machine; `npm test` runs everything, as CI does. Extra arguments go to vitest
 * (`npm run test:fast -- writer` runs the files whose path holds "writer").
 */
import { readdirSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

/** The test files left to `npm test`, each with what it starts; a new test file joins the lane unless named. */
const SLOW: Record<string, string> = {
  'packages/cli/test/bin.test.ts': 'the built bin',
  'packages/cli/test/broken-pipe.test.ts': 'the command, with a pipe closed under it',
  'packages/cli/test/conformance-console.test.ts': 'the command against a hostile server',
  'packages/cli/test/default-spec.test.ts': 'the command outside a clone',
  'packages/cli/test/diff-command.test.ts': 'the built bin, and a minute of diffs',
  'packages/cli/test/docs-command.test.ts': 'the built bin',
  'packages/client/test/events.test.ts': 'a process of its own',
  'packages/docs/test/browser.test.ts': 'Chromium',
  'packages/sandbox/test/cli-stop.test.ts': 'the sandbox command and its launchers',
  'packages/sandbox/test/cli.test.ts': 'the sandbox command',
  'packages/sandbox/test/faults.test.ts': 'a sandbox in a process of its own',
  'packages/sandbox/test/options.test.ts': 'the sandbox command, handle counts in a process',
  'tools/codegen/test/emitters.test.ts': 'tsc over generated code',
  'tools/codegen/test/escape.test.ts': 'python and go over generated code',
  'tools/codegen/test/hostile.test.ts': 'tsc, python, mypy and go over generated code',
  'tools/codegen/test/languages.test.ts': 'python, mypy and go over generated code',
  'tools/codegen/test/library-spec.test.ts': 'tsc over generated code',
  'tools/codegen/test/plain-spec.test.ts': 'tsc over generated code',
};

const dirs = ['tools/codegen', 'tools/evidence', ...readdirSync('packages').map((p) => `packages/${p}`)];

export default defineConfig({
  test: {
    // Each package's own config, less its slow files (their paths taken from the package's folder).
    projects: dirs.map((dir) => ({
      extends: `./${dir}/vitest.config.ts`,
      test: {
        root: `./${dir}`,
        exclude: [
          ...configDefaults.exclude,
          ...Object.keys(SLOW)
            .filter((f) => f.startsWith(`${dir}/`))
            .map((f) => f.slice(dir.length + 1)),
        ],
      },
    })),
    // The unit tests are CPU-bound: one worker per core.
    maxWorkers: 2,
  },
});

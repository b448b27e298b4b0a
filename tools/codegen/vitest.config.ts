import { defineConfig } from 'vitest/config';
import { hangBounds, longestFirst, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  // No module isolation between files: re-importing the sources (the parser, ethers, ajv) for each file
  // cost about a minute of CPU per run; no test here mocks a module (packages/types and packages/client do).
  test: {
    name: 'codegen',
    isolate: false,
    include: ['test/**/*.test.ts'],
    ...hangBounds,
    passWithNoTests: true,
    // Measured on a fresh clone's run, longest first (vitest knows no durations there).
    sequence: {
      sequencer: longestFirst([
        'test/diff/spec-mutations.test.ts',
        'test/languages.test.ts',
        'test/spec-errors.test.ts',
        'test/library-spec.test.ts',
        'test/docs-emit.test.ts',
      ]),
    },
  },
});

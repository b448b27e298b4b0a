import { defineConfig } from 'vitest/config';
import { hangBounds, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  // No module isolation between files: re-importing the sources (the parser, ethers, ajv) for each file
  // cost about a minute of CPU per run; no test here mocks a module (packages/types and packages/client do).
  test: {
    name: 'conformance',
    isolate: false,
    include: ['test/**/*.test.ts'],
    ...hangBounds,
    passWithNoTests: true,
  },
});

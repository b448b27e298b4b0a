import { defineConfig } from 'vitest/config';
import { hangBounds, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  // No module isolation between files: re-importing the sources (ethers, ajv, the sandbox) for each file cost
  // about two minutes of CPU per run (vitest's "import"); no test here mocks a module. Shared modules keep
  // their state from file to file: the helpers' cleanup runs after each test of every file (test/setup.ts).
  test: {
    name: 'sandbox',
    isolate: false,
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    ...hangBounds,
    passWithNoTests: true,
  },
});

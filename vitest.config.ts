import { defineConfig } from 'vitest/config';

// One run over every package and test/ (`npx vitest`, and `npm test` as the cached turbo task
// //#test:all), so one report counts every test.
export default defineConfig({
  test: {
    projects: ['tools/codegen', 'tools/evidence', 'packages/*', 'test'],
    // Most of the long tests wait on sockets and child processes, not on the CPU: three files at a time
    // on a 2-core machine (vitest's default there is one).
    maxWorkers: 3,
    // The command-line tests run the built command: build what changed first (cached by turbo).
    globalSetup: ['./test/support/build-once.ts'],
    reporters: ['default'],
  },
});

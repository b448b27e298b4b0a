import { defineConfig } from 'vitest/config';

// One run over every package and test/ (`npx vitest run <file>`, `npm run test:all`). `npm test` runs
// the same projects as turbo tasks instead, one per package and one for test/ (turbo.json), each cached.
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

import { defineConfig } from 'vitest/config';

// One run over every package, so the test command prints one summary.
export default defineConfig({
  test: {
    projects: ['tools/codegen', 'packages/*', 'test'],
    reporters: ['default'],
  },
});

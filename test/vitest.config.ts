import { defineConfig } from 'vitest/config';

// Cross-package end-to-end tests: real sockets on loopback, so generous timeouts on a 2-core machine.
export default defineConfig({
  test: { name: 'e2e', include: ['**/*.test.ts'], testTimeout: 60_000, hookTimeout: 30_000, passWithNoTests: true },
});

import { defineConfig } from 'vitest/config';
import { sourceResolve } from '../vitest.shared.ts';

// Cross-package end-to-end tests: real sockets on loopback, so generous timeouts on a 2-core machine.
export default defineConfig({
  ...sourceResolve,
  test: { name: 'e2e', include: ['**/*.test.ts'], testTimeout: 60_000, hookTimeout: 30_000, passWithNoTests: true },
});

import { defineConfig } from 'vitest/config';
import { hangBounds, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  test: { name: 'evidence', include: ['test/**/*.test.ts'], ...hangBounds },
});

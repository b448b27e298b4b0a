import { defineConfig } from 'vitest/config';
import { hangBounds, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  test: {
    name: 'client',
    include: ['test/**/*.test.ts'],
    ...hangBounds,
    passWithNoTests: true,
  },
});

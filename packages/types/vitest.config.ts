import { defineConfig } from 'vitest/config';
import { hangBounds, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  test: {
    name: 'types',
    include: ['test/**/*.test.ts'],
    ...hangBounds,
    passWithNoTests: true,
  },
});

import { defineConfig } from 'vitest/config';
import { runDefaults, sourceResolve } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceResolve,
  test: {
    name: 'types',
    include: ['test/**/*.test.ts'],
    ...runDefaults,
    passWithNoTests: true,
  },
});

// The linter of `npm test` and `npm run lint`: typescript-eslint's recommended rules, without type
// information (a type-aware run over every package costs minutes; tsc already checks the types).
// Layout is prettier's (.prettierrc.json), so no stylistic rule is on here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What Node gives a plain .js/.mjs/.cjs script (TypeScript files get no-undef from tsc instead). */
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'URL',
    'Buffer',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'structuredClone',
    'fetch',
    'WebSocket',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/.turbo/',
      '**/*.gen.*',
      'packages/docs/site/',
      'test-output/',
      'exchange-api-output/',
      // tsup's bundle of a package's tsup.config.ts, there for a moment while it builds (npm test lints
      // while the build runs).
      '**/tsup.config.bundled_*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
    rules: {
      // `_name` marks a value taken apart on purpose (a rest pattern that drops members).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { ...nodeGlobals, module: 'writable', require: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read frames off the wire field by field; typing each frame in an assertion buys nothing.
    files: ['**/test/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);

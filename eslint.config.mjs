// ESLint: typescript-eslint's recommended rules and the project's own conventions; formatting is Prettier's.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist.building-*/', 'dist.previous-*/', 'generated/', 'coverage/', 'node_modules/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      // CommonJS output: lazy require() keeps optional drivers and heavy modules off the start path.
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Sniffing content, sanitising markup and checking names match control characters on purpose.
      'no-control-regex': 'off',
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a union of string literals.' }],
    },
  },
  // Tests and scripts send and read raw JSON of any shape.
  { files: ['tests/**/*.ts', 'scripts/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['assets/**/*.js'], languageOptions: { globals: { ...globals.browser, SwaggerUIBundle: 'readonly' } } },
  {
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
);

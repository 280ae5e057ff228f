import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noServerCode = { group: ['**/server/**'], message: 'The client never imports server code.' };

export default tseslint.config(
  { ignores: ['dist', '**/dist-*', 'node_modules', 'data', 'drizzle', 'coverage', 'test-results', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [noServerCode] }],
    },
  },
  {
    // Imports flow one way: shared → api/lib/ui → features → app. A feature never imports another
    // feature (a sibling folder, '../<feature>/...') nor the app shell.
    files: ['client/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noServerCode,
            {
              regex: '^\\.\\./[^./][^/]*/',
              message: 'A feature never imports another feature; move shared code to client/lib.',
            },
            { regex: '^\\.\\./\\.\\./app/', message: 'Features do not import the app shell.' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/client/**'], message: 'shared/ is isomorphic.' }] },
      ],
    },
  },
);

import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
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
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      // STYLE.md rule 10: no circular imports (a cycle makes load order, and so behaviour, fragile).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
    // Services, queries and infrastructure know nothing of HTTP (docs/architecture.md): only the
    // HTTP layer, the app's assembly and each feature's routes import server/http/. And a feature
    // asks another feature's service, never its queries (one owner per table).
    files: ['server/**/*.ts'],
    ignores: ['server/http/**', 'server/app.ts', 'server/main.ts', 'server/features/*/routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/http/*'], message: 'Only routes and the app use the HTTP layer; pass plain values in.' },
            {
              regex: '^\\.\\./[^./][^/]*/queries$',
              message: "Ask the other feature's service: its queries are its own (one owner per table).",
            },
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

import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noServerCode = { group: ['**/server/**'], message: 'The client never imports server code.' };
const otherFeaturesQueries = {
  // Any queries module but the importing feature's own, './queries'.
  regex: '^(?!\\./queries$)(?:.*/)?queries$',
  message: "Ask the other feature's service: its queries are its own (one owner per table).",
};
const httpLayer = {
  group: ['**/http/*'],
  message: 'Only routes and the app use the HTTP layer; pass plain values in.',
};
const hono = { group: ['hono', 'hono/*', '@hono/*'], message: 'Only routes and the HTTP layer speak HTTP (Hono).' };
const features = {
  group: ['**/features/**'],
  message: 'Adapters and the database know no feature; a feature uses them, never the other way.',
};

export default tseslint.config(
  {
    // tests/fixtures/lint: files that break these rules on purpose, linted at other paths by
    // tests/unit/lint-rules.test.ts.
    ignores: [
      'dist',
      '**/dist-*',
      'node_modules',
      'data',
      'drizzle',
      'coverage',
      'test-results',
      '.tmp',
      'tests/fixtures/lint',
    ],
  },
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
  // The server's layers (docs/architecture.md), each block naming everything its files may not
  // import: a later block replaces an earlier one's list for the files it covers.
  {
    // One owner per table: a feature's queries are its own (./queries); anyone else, a route
    // included, asks that feature's service.
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeaturesQueries] }] },
  },
  {
    // Services, queries and infrastructure know nothing of HTTP: only the HTTP layer, the app's
    // assembly (with the pages' first answers, read from addresses as the routes read them), the
    // start-up that listens and each feature's routes import server/http/ or Hono.
    files: ['server/**/*.ts'],
    ignores: [
      'server/http/**',
      'server/app.ts',
      'server/first-answers.ts',
      'server/main.ts',
      'server/start/serve.ts',
      'server/features/*/routes.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeaturesQueries, httpLayer, hono] }] },
  },
  {
    // A JSON answer is made whole with the headers the middleware collected (answer-headers.ts),
    // and a header set beforehand with c.header() would not be on it: routes pass their headers
    // with the answer (c.json(value, status, headers), c.body(…)) instead.
    files: ['server/features/*/routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='c'][callee.property.name='header']",
          message: 'Pass headers with the answer: c.json(value, status, headers) or c.body(body, status, headers).',
        },
      ],
    },
  },
  {
    // Adapters and the database sit below the features: they hold no product rules to ask for.
    files: ['server/infra/**/*.ts', 'server/db/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherFeaturesQueries, httpLayer, hono, features] }] },
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

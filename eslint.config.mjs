// ESLint (flat config) with typescript-eslint's type-aware rules over every file of ours, the
// JavaScript included (typed by tsconfig.js.json). Formatting is Prettier's: eslint-config-prettier,
// last, turns off every rule that would fight it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Built, generated or installed: not ours to lint.
  globalIgnores([
    '**/node_modules/',
    'dist/',
    '.tmp/',
    'test-results/',
    'playwright-report/',
    '.emulator-data*/',
    'test/browsers/apps/**/dist/',
    'test/browsers/apps/**/.next/',
  ]),
  {
    files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Two programs, not `projectService` (which only finds files named tsconfig.json): the
        // TypeScript (strict) and the JavaScript (checkJs), as `npm run typecheck` checks them.
        project: ['./tsconfig.json', './tsconfig.js.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // TypeScript already reports an undefined name in every file, the JavaScript included (checkJs),
      // and knows the globals of each environment (DOM, Node, Workers) better than a list would.
      'no-undef': 'off',
      // An `async` function without `await` is how an implementation of an asynchronous interface
      // (the memory store beside the Redis one, a test double of fetch) turns a throw into a
      // rejection, which callers handle; making such functions sync would change that contract.
      '@typescript-eslint/require-await': 'off',
      // `_name` is a binding kept for its position or to leave a field out of a rest object
      // (`const { type: _type, ...rest } = body`), not a forgotten variable.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read JSON answers, driver results and log lines that are `any` by nature, and assert on
    // them: what they read is checked by the assertion, not by a type. The sources keep these rules.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // JavaScript: a value is `any` wherever no JSDoc types it (tsconfig.js.json has noImplicitAny
    // off), so these rules would ask for a JSDoc type on nearly every parameter of the benches,
    // the demo and the test pages (about 690 findings, none a bug). The type check still covers
    // what is typed; the promise rules, which matter here, stay on.
    files: ['**/*.{js,jsx,mjs,cjs}'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Type tests read a method's type (`expectTypeOf(client.users.upsert)`); nothing calls it unbound.
    files: ['test/types/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  prettier,
);

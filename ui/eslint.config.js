import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

export default ts.config(
  // e2e/ is its own package (Playwright, own tsconfig and typecheck).
  { ignores: ['dist/', 'node_modules/', 'e2e/', 'src/api/schema.d.ts'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      parserOptions: {
        parser: ts.parser,
        extraFileExtensions: ['.svelte'],
        svelteConfig,
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Plain Svelte + Vite app: there is no SvelteKit `resolve()`.
      'svelte/no-navigation-without-resolve': 'off',
      // Local Maps, Sets and URLs here are scratch values, not reactive state.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
);

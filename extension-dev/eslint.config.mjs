import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['extension-dev/node_modules/**', 'extension-dev/test-results/**', 'extension-dev/test-results-firefox/**', 'extension-dev/playwright-report/**'] },
  {
    files: ['extension/**/*.js'],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.serviceworker, ...globals.webextensions },
    },
    rules: {
      ...js.configs.recommended.rules,
      // No code from elsewhere, no string evaluation, no HTML from strings.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Build DOM nodes; never parse page text as HTML.' },
        { property: 'outerHTML', message: 'Build DOM nodes; never parse page text as HTML.' },
        { property: 'insertAdjacentHTML', message: 'Build DOM nodes; never parse page text as HTML.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'XMLHttpRequest', message: 'All requests go through lib/service.js.' },
        { name: 'WebSocket', message: 'The extension talks HTTP to the app only.' },
        { name: 'EventSource', message: 'It cannot send the bearer header; see worker/follow.js.' },
      ],
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['extension/content/**/*.js'],
    languageOptions: { sourceType: 'script' },
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Content scripts never make requests: they message the worker.' },
        { name: 'XMLHttpRequest', message: 'Content scripts never make requests.' },
        { name: 'navigator', message: 'Content scripts read the DOM only, never media or devices.' },
      ],
    },
  },
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
);

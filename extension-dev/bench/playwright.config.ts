import { defineConfig } from '@playwright/test';

// The extension's benchmark (not a test: it measures and writes a table).
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.bench\.ts/,
  outputDir: '../test-results/bench',
  workers: 1,
  retries: 0,
  timeout: 0,
  reporter: [['list']],
});

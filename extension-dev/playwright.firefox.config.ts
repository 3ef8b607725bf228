import { defineConfig } from '@playwright/test';

// The Firefox build's tests (tests-firefox/): Playwright's runner and reporter,
// Firefox ESR driven by Puppeteer over WebDriver BiDi inside the tests. One
// worker, one browser and one service per file: the suite stays short.
export default defineConfig({
  testDir: './tests-firefox',
  outputDir: './test-results-firefox',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
});

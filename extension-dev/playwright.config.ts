import { defineConfig } from '@playwright/test';

// Each spec starts its own `recorder serve` and its own Chromium profile with
// the extension loaded. One worker: 2 cores, and each test owns a browser.
// (Two workers took the Chromium run from 9.3 to 5.4 min, but under that load
// the impostor test's kill met a request between its proof and its sending.)
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
});

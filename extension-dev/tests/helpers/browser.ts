/**
 * Debian's Chromium with the extension loaded unpacked from extension/ as it is
 * in the repository (persistent context: the only way Chromium loads one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const EXTENSION = path.join(REPO, 'extension');
export const SCREENSHOTS = path.join(REPO, 'target', 'extension-screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const QUIET = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--safebrowsing-disable-auto-update',
  '--no-pings',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication,CertificateTransparencyComponentUpdater,SigninInterceptBubble,ChromeSignin',
];

export interface Browser {
  context: BrowserContext;
  extensionId: string;
  /** The extension's service worker as it is now (it changes after a stop). */
  worker(): Promise<Worker>;
  close(): Promise<void>;
}

export async function launch(options: { proxy?: string } = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-ext-'));
  const args = [
    '--no-sandbox',
    '--disable-dev-shm-usage',
    `--disable-extensions-except=${EXTENSION}`,
    `--load-extension=${EXTENSION}`,
  ];
  // Every request the browser makes, loopback included, goes to the logging
  // proxy; Chromium's own background traffic (component and extension update
  // checks, sign-in, safe browsing) is switched off so the log shows only
  // what pages and the extension asked for.
  if (options.proxy) args.push(`--proxy-server=${options.proxy}`, '--proxy-bypass-list=<-loopback>', ...QUIET);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    args,
  });
  const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(first.url()).host;
  const worker = async (): Promise<Worker> => {
    const live = context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${extensionId}/`));
    return live ?? (await context.waitForEvent('serviceworker', { timeout: 60_000 }));
  };
  return {
    context,
    extensionId,
    worker,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The toolbar badge's text, read in the worker. */
export async function badge(browser: Browser): Promise<string> {
  const worker = await browser.worker();
  return worker.evaluate(() => chrome.action.getBadgeText({}));
}

/** Points the extension at the test service (what the options page saves). */
export async function useService(browser: Browser, base: string): Promise<void> {
  const worker = await browser.worker();
  await worker.evaluate((baseUrl) => chrome.storage.local.set({ baseUrl }), base);
}

/** What the extension keeps in `storage.local` (base URL and token). */
export async function stored(browser: Browser): Promise<Record<string, unknown>> {
  const worker = await browser.worker();
  return worker.evaluate(() => chrome.storage.local.get(null));
}

/** The popup, opened as a page (the same document Chrome shows under the icon). */
export async function openPopup(browser: Browser): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 340, height: 560 });
  await page.goto(`chrome-extension://${browser.extensionId}/popup/popup.html`);
  return page;
}

/** Stops every service worker, as Chrome does to an idle extension (CDP). */
export async function stopWorkers(browser: Browser, page: Page): Promise<void> {
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

/** A screenshot of `page` under target/extension-screenshots/. */
export async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

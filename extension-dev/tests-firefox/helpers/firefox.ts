/**
 * Debian's Firefox ESR driven by Puppeteer over WebDriver BiDi (no geckodriver),
 * with the Firefox build (target/extension-firefox/, scripts/extension-firefox.sh)
 * installed through BiDi's `webExtension.install`, every request going through
 * the logging proxy, and the meeting hosts answered by the fake pages over TLS.
 */
import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const FIREFOX_BUILD = path.join(REPO, 'target', 'extension-firefox');
export const SCREENSHOTS = path.join(REPO, 'target', 'extension-screenshots');
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const GECKO_ID = 'recorder@recorder.local';
/** The extension's moz-extension:// host, fixed through a pref (Firefox draws one per profile). */
const UUID = '5e2b0c8a-7d41-4f0e-9a63-1c2d3e4f5a6b';
export const ORIGIN = `moz-extension://${UUID}`;

export interface Firefox {
  browser: Browser;
  /** A page of the extension (such as `popup/popup.html`) in a new tab. */
  extensionPage(file: string): Promise<Page>;
  /** Runs `fn` in an extension page (the `browser.*` API is there). */
  api<T, A>(fn: (arg: A) => Promise<T> | T, arg: A): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts Firefox ESR with every request sent to `proxy` (loopback included),
 * certificate errors accepted (the fake meeting hosts' certificate is
 * self-signed), and the extension installed.
 */
export async function launchFirefox(proxy: { host: string; port: number }): Promise<Firefox> {
  if (!fs.existsSync(path.join(FIREFOX_BUILD, 'manifest.json'))) {
    throw new Error(`${FIREFOX_BUILD} is missing: run scripts/extension-firefox.sh`);
  }
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    acceptInsecureCerts: true,
    // Lets BiDi open the extension's own pages (moz-extension://) in a tab.
    env: { ...process.env, MOZ_REMOTE_ALLOW_SYSTEM_ACCESS: '1' },
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: UUID }),
      'network.proxy.type': 1,
      'network.proxy.http': proxy.host,
      'network.proxy.http_port': proxy.port,
      'network.proxy.ssl': proxy.host,
      'network.proxy.ssl_port': proxy.port,
      'network.proxy.no_proxies_on': '',
      'network.proxy.allow_hijacking_localhost': true,
      // Firefox's own background traffic, off (the proxy would refuse it anyway).
      'services.settings.server': 'data:,#remote-settings-dummy/v1',
      'network.connectivity-service.enabled': false,
      'network.captive-portal-service.enabled': false,
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
    },
  });
  try {
    const id = await browser.installExtension(FIREFOX_BUILD);
    if (id !== GECKO_ID) throw new Error(`installed as ${id}, not ${GECKO_ID}`);
  } catch (error) {
    await browser.close();
    throw error;
  }
  let helper: Page | null = null;
  const extensionPage = async (file: string): Promise<Page> => {
    const page = await browser.newPage();
    // page.goto waits for navigation events BiDi does not send for a
    // privileged page; the browsing context's own navigate waits for the load.
    const frame = page.mainFrame() as unknown as { browsingContext: { navigate(url: string, wait: string): Promise<unknown> } };
    await frame.browsingContext.navigate(`${ORIGIN}/${file}`, 'complete');
    return page;
  };
  return {
    browser,
    extensionPage,
    api: async (fn, arg) => {
      helper ??= await extensionPage('options/options.html');
      return helper.evaluate(fn as never, arg as never) as never;
    },
    close: () => closeWithin(browser, 15_000),
  };
}

/**
 * Closes Firefox; one that has not closed within `ms` (BiDi's close can hang
 * after a test) is killed, so a suite's teardown never outlives its hook.
 */
async function closeWithin(browser: Browser, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const closed = browser.close().then(() => 'closed' as const, () => 'late' as const);
  const outcome = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (outcome === 'late') browser.process()?.kill('SIGKILL');
}

/** The toolbar badge's text. */
export function badge(firefox: Firefox): Promise<string> {
  return firefox.api(() => (globalThis as unknown as { browser: typeof chrome }).browser.action.getBadgeText({}), null);
}

/** Points the extension at the test service (what the options page saves). */
export async function useService(firefox: Firefox, base: string): Promise<void> {
  await firefox.api((baseUrl) => (globalThis as unknown as { browser: typeof chrome }).browser.storage.local.set({ baseUrl }), base);
}

/** Polls `read` until it returns `want` (or throws after `ms`). */
export async function until<T>(read: () => Promise<T> | T, want: T, ms = 10_000, what = 'value'): Promise<void> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(want)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: expected ${JSON.stringify(want)} within ${ms} ms, last ${JSON.stringify(last)}`);
}

/** Waits until `page` shows `text` somewhere in its body. */
export async function showsText(page: Page, text: string, ms = 10_000): Promise<void> {
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: ms, polling: 100 }, text);
}

/** A screenshot of `page` under target/extension-screenshots/. */
export async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

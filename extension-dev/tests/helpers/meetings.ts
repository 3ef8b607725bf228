/**
 * Fake meeting pages (tests/pages, see SIGNALS.md there) served on the real
 * products' origins through `context.route`: the content scripts run on them
 * exactly as on the real sites. Each page has `window.fake` to drive it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';

const PAGES = path.join(__dirname, '..', 'pages');

export type Variant = 'synthetic' | 'real' | 'real-de';
export type State = 'lobby' | 'muted' | 'live' | 'left';

export interface Product {
  source_app: 'google_meet' | 'zoom' | 'teams';
  label: string;
  url: string;
  /** The `url` the prompt must carry (the page's, without passcodes). */
  promptUrl: string;
  /** The title the prompt must carry after `fake.setTitle('Weekly sync')`. */
  title: (variant: Variant) => string;
  variants: Variant[];
  /** Whether the page shows which attendee is the person. */
  marksSelf: (variant: Variant) => boolean;
}

export const PRODUCTS: Product[] = [
  {
    source_app: 'google_meet',
    label: 'Google Meet',
    url: 'https://meet.google.com/abc-defg-hij?authuser=0',
    promptUrl: 'https://meet.google.com/abc-defg-hij?authuser=0',
    title: () => 'Weekly sync',
    variants: ['synthetic', 'real', 'real-de'],
    marksSelf: (variant) => variant !== 'synthetic',
  },
  {
    source_app: 'zoom',
    label: 'Zoom',
    url: 'https://app.zoom.us/wc/123456789/join?fromPWA=1&pwd=s3cret',
    promptUrl: 'https://app.zoom.us/wc/123456789/join?from=pwa',
    // Zoom's tab title is always "Zoom": the topic shows only inside the real client.
    title: (variant) => (variant === 'synthetic' ? '123456789' : 'Weekly sync'),
    variants: ['synthetic', 'real'],
    marksSelf: () => false,
  },
  {
    source_app: 'teams',
    label: 'Teams',
    url: 'https://teams.microsoft.com/v2/?meetingjoin=true#/l/meetup-join/19:meeting_NzA1ZWQx@thread.v2/0',
    promptUrl: 'https://teams.microsoft.com/v2/?meetingjoin=true#/l/meetup-join/19:meeting_NzA1ZWQx@thread.v2/0',
    title: () => 'Weekly sync',
    variants: ['synthetic', 'real', 'real-de'],
    marksSelf: () => true,
  },
];

const KIT = fs.readFileSync(path.join(PAGES, 'fake-kit.js'), 'utf8');

/**
 * A page's HTML with the shared fake kit inlined (the product's origin serves
 * only the routed page); `meet-real-de` is `meet-real` with German as its language.
 */
export function page(name: string): string {
  const german = name.endsWith('-de');
  const file = fs.readFileSync(path.join(PAGES, `${german ? name.slice(0, -3) : name}.html`), 'utf8');
  const html = file.replace('<script src="fake-kit.js"></script>', () => `<script>\n${KIT}</script>`);
  if (html === file) throw new Error(`${name}: the page does not load fake-kit.js`);
  if (!german) return html;
  const localised = html.replace("const DEFAULT_LANG = 'en';", "const DEFAULT_LANG = 'de';").replace('<html lang="en">', '<html lang="de">');
  if (localised === html) throw new Error(`${name}: the page has no DEFAULT_LANG to switch`);
  return localised;
}

/** The hosts the fake pages stand in for (Teams has three). */
export const TEAMS_HOSTS = ['teams.microsoft.com', 'teams.live.com', 'teams.cloud.microsoft'];
export const MEETING_HOSTS = ['meet.google.com', 'app.zoom.us', ...TEAMS_HOSTS];

/** The fake page `variant` that a meeting URL gets; null for a URL no fake page stands for. */
export function fakePageFor(url: URL, variant: Variant): string | null {
  if (url.protocol !== 'https:') return null;
  if (url.hostname === 'meet.google.com') return page(`meet-${variant}`);
  if (TEAMS_HOSTS.includes(url.hostname)) return page(`teams-${variant}`);
  if (url.hostname === 'app.zoom.us' && url.pathname.startsWith('/wc/')) {
    // The app.zoom.us shell loads the client into #webclient at the same path with ?from=pwa.
    const zoom = variant === 'real-de' ? 'real' : variant;
    const frame = url.searchParams.get('from') === 'pwa';
    return page(frame ? `zoom-${zoom}-frame` : `zoom-${zoom}`);
  }
  return null;
}

/** Serves `variant` of every product on its real origin. */
export async function serveMeetings(context: BrowserContext, variant: Variant): Promise<void> {
  const patterns = ['https://meet.google.com/**', 'https://app.zoom.us/wc/**', ...TEAMS_HOSTS.map((host) => `https://${host}/**`)];
  for (const pattern of patterns) {
    await context.route(pattern, (route) => {
      const body = fakePageFor(new URL(route.request().url()), variant);
      return body === null ? route.abort() : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
    });
  }
}

/** Opens a product's meeting page in a new tab, in the lobby. */
export async function openMeeting(context: BrowserContext, product: Product): Promise<Page> {
  const tab = await context.newPage();
  await tab.goto(product.url);
  if (product.source_app === 'zoom') await tab.evaluate(() => (window as unknown as FakeWindow).fake.ready?.());
  return tab;
}

interface FakeWindow {
  fake: {
    ready?: () => Promise<void>;
    state: (name?: State) => State;
    setTitle: (text: string) => void;
    addParticipant: (name: string) => boolean;
    removeParticipant: (name: string) => boolean;
    churn: (n: number) => number;
  };
}

export async function setState(tab: Page, state: State): Promise<void> {
  await tab.evaluate((s) => (window as unknown as FakeWindow).fake.state(s), state);
}

export async function setTitle(tab: Page, title: string): Promise<void> {
  await tab.evaluate((t) => (window as unknown as FakeWindow).fake.setTitle(t), title);
}

export async function churn(tab: Page, n: number): Promise<number> {
  return tab.evaluate((count) => (window as unknown as FakeWindow).fake.churn(count), n);
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

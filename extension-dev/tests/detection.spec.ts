/**
 * Detection and prompting (CONTRACT §10) on each product's fake pages: the
 * synthetic page built from the contract's signals, the page reproduced from
 * the real product's structure, and (where the product has data-* signals) the
 * real page in German. Every prompt is counted at the network: the logging
 * proxy sees each POST the browser makes.
 */
import { expect, test } from '@playwright/test';
import { badge, shoot, openPopup } from './helpers/browser';
import { openMeeting, pause, PRODUCTS, serveMeetings, setState, setTitle, type Product, type Variant } from './helpers/meetings';
import { pair, world, type World } from './helpers/setup';

interface Prompt {
  prompt_id: string;
  source_app: string;
  title: string;
  url: string;
  attendees: { name: string; self?: boolean }[];
}

let w: World;
test.beforeEach(async () => {
  w = await world();
});
test.afterEach(async () => {
  await w?.close();
});

const prompts = () => w.proxy.requests('POST', '/v1/recording/prompt').length;
const endedReports = () => w.proxy.requests('POST', '/v1/recording/ended').map((r) => JSON.parse(r.body) as Record<string, unknown>);

async function pending(): Promise<Prompt[]> {
  return (await w.service.get<{ prompts: Prompt[] }>('/ui/prompts')).prompts;
}

/** The newest prompt the app shows, other than `not`: the proxy logs the
 * extension's request before the service has answered it, so this waits. */
async function shownPrompt(not?: Prompt): Promise<Prompt> {
  let found: Prompt | undefined;
  await expect
    .poll(async () => {
      found = (await pending()).filter((p) => p.prompt_id !== not?.prompt_id).at(-1);
      return found !== undefined;
    }, { message: 'a prompt shown in the app' })
    .toBe(true);
  return found!;
}

async function decline(prompt: Prompt): Promise<void> {
  const answer = await w.service.call('POST', `/ui/prompts/${prompt.prompt_id}/answer`, { body: { answer: 'decline' } });
  expect(answer.status, answer.text).toBe(200);
}

/** The body the extension sent (as the proxy saw it) and what the app shows. */
function expectBody(sent: Prompt, shown: Prompt, product: Product, variant: Variant): void {
  expect(Object.keys(sent).sort()).toEqual(['attendees', 'source_app', 'title', 'url']);
  for (const prompt of [sent, shown]) {
    expect(prompt.source_app).toBe(product.source_app);
    expect(prompt.title).toBe(product.title(variant));
    expect(prompt.url).toBe(product.promptUrl);
    const names = prompt.attendees.map((a) => a.name);
    expect(new Set(names)).toEqual(new Set(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']));
    expect(names).toHaveLength(3);
  }
  // The own entry is marked `self: true` where the page shows who you are (an
  // addition to the contract's {name}; the app ignores it for now).
  const own = sent.attendees.filter((a) => a.self).map((a) => a.name);
  expect(own).toEqual(product.marksSelf(variant) ? ['Ada Lovelace'] : []);
  expect(sent.attendees.every((a) => a.self === undefined || a.self === true)).toBe(true);
}

function sentBody(index: number): Prompt {
  return JSON.parse(w.proxy.requests('POST', '/v1/recording/prompt')[index].body) as Prompt;
}

for (const product of PRODUCTS) {
  for (const variant of product.variants) {
    test(`${product.label} (${variant} page): lobby and muted ask nothing; the mic going on asks once; rejoining asks again`, async () => {
      await pair(w);
      await serveMeetings(w.browser.context, variant);
      const tab = await openMeeting(w.browser.context, product);
      await setTitle(tab, 'Weekly sync');
      await setState(tab, 'lobby');
      await pause(1500);
      await setState(tab, 'muted');
      await pause(1500);
      expect(prompts(), 'no prompt in the lobby or while muted').toBe(0);

      await setState(tab, 'live');
      await expect.poll(prompts).toBe(1);
      const shown = await shownPrompt();
      expectBody(sentBody(0), shown, product, variant);
      if (variant === 'real-de') {
        // German labels: only the language-independent fallback can have matched.
        const frames = await (await w.browser.worker()).evaluate(() => chrome.storage.session.get(null));
        const live = Object.entries(frames)
          .filter(([key]) => key.startsWith('tab:'))
          .flatMap(([, tab]) => Object.values(tab as Record<string, { phase: string; matched: { mic_on: string } }>))
          .find((frame) => frame.phase === 'live');
        expect(live?.matched.mic_on).not.toContain('aria-label');
      }

      // Muting and unmuting in the same call asks nothing more.
      await setState(tab, 'muted');
      await pause(800);
      await setState(tab, 'live');
      await pause(1500);
      expect(prompts(), 'one prompt per call').toBe(1);
      expect(endedReports(), 'muting is no end of the call').toEqual([]);

      // Leave, decline the first card, join again: a new call asks again.
      // Leaving tells the app the call ended, once, with the prompt's url.
      await decline(shown);
      await setState(tab, 'left');
      await expect.poll(() => endedReports().length).toBe(1);
      expect(endedReports()[0]).toEqual({ source_app: product.source_app, url: product.promptUrl });
      await pause(1500);
      expect(endedReports()).toHaveLength(1);
      await setState(tab, 'lobby');
      await setState(tab, 'live');
      await expect.poll(prompts).toBe(2);
      const again = await shownPrompt(shown);
      expect(again.prompt_id).not.toBe(shown.prompt_id);
      expect(await badge(w.browser)).toBe('');
      expect(endedReports(), 'the new call is still on').toHaveLength(1);
      if (variant === 'real') {
        const popup = await openPopup(w.browser);
        await popup.getByText('Details', { exact: true }).click();
        await expect(popup.locator('#details-list')).toContainText('Ada Lovelace');
        await shoot(popup, `popup-details-${product.source_app}`);
        // The clipboard of a headless browser cannot be read back: keep what is written.
        await popup.evaluate(() => {
          const write = navigator.clipboard.writeText.bind(navigator.clipboard);
          navigator.clipboard.writeText = (text: string) => {
            (window as unknown as { copied: string }).copied = text;
            return write(text);
          };
        });
        await popup.getByRole('button', { name: 'Copy details' }).click();
        await expect(popup.getByText('Copied: paste it into your bug report.')).toBeVisible();
        const copied = JSON.parse(await popup.evaluate(() => (window as unknown as { copied: string }).copied));
        expect(copied.source_app).toBe(product.source_app);
        expect(copied.matched.in_call).toBeTruthy();
      }
    });
  }
}

test('nothing is sent while unpaired; pairing mid-call sends the prompt', async () => {
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await openMeeting(w.browser.context, PRODUCTS[0]);
  await setState(tab, 'live');
  await pause(4000);
  expect(prompts(), 'never sent while unpaired').toBe(0);
  await pair(w);
  // The detector retries with back-off while the call is live (1, 2, 4 … 30 s).
  await expect.poll(prompts, { timeout: 40_000 }).toBe(1);
  expect((await shownPrompt()).source_app).toBe('google_meet');
});

test('the app down during a call: "!" and retries; the prompt arrives once it is back', async () => {
  test.setTimeout(180_000);
  await pair(w);
  await w.service.kill();
  // Each try first asks the service to prove itself (CONTRACT §12); with
  // nothing listening that request fails and the prompt itself is never sent.
  const challenges = () => w.proxy.requests('GET', '/.well-known/recorder-identity').length;
  const before = challenges();
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await openMeeting(w.browser.context, PRODUCTS[2]);
  await setTitle(tab, 'Weekly sync');
  await setState(tab, 'live');
  await expect.poll(() => badge(w.browser)).toBe('!');
  await expect.poll(() => challenges() - before, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  expect(prompts()).toBe(0);
  await w.service.restart();
  await expect.poll(async () => (await pending()).length, { timeout: 60_000 }).toBe(1);
  expect((await pending())[0].title).toBe('Weekly sync');
  await expect.poll(() => badge(w.browser)).toBe('');
  const sent = prompts();
  await pause(3000);
  expect(prompts(), 'no more tries once the app took it').toBe(sent);
});

test('teams.live.com is recognised too, and a passcode in the link is not sent', async () => {
  await pair(w);
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await w.browser.context.newPage();
  await tab.goto('https://teams.live.com/meet/9398765432100?p=Pa55code');
  await setTitle(tab, 'Family call');
  await setState(tab, 'live');
  await expect.poll(prompts).toBe(1);
  const shown = await shownPrompt();
  expect(shown.source_app).toBe('teams');
  expect(shown.title).toBe('Family call');
  expect(shown.url).toBe('https://teams.live.com/meet/9398765432100');
});

test('teams.cloud.microsoft is recognised too; leaving reports its url', async () => {
  await pair(w);
  await serveMeetings(w.browser.context, 'real');
  const tab = await w.browser.context.newPage();
  const url = 'https://teams.cloud.microsoft/v2/?meetingjoin=true#/l/meetup-join/19:meeting_Y2xvdWQx@thread.v2/0';
  await tab.goto(url);
  await setTitle(tab, 'Cloud sync');
  await setState(tab, 'live');
  await expect.poll(prompts).toBe(1);
  const shown = await shownPrompt();
  expect(shown.source_app).toBe('teams');
  expect(shown.title).toBe('Cloud sync');
  expect(shown.url).toBe(url);
  expect(new Set(shown.attendees.map((a) => a.name))).toEqual(new Set(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']));
  await setState(tab, 'left');
  await expect.poll(endedReports).toEqual([{ source_app: 'teams', url }]);
});

test('a call never asked about (unpaired throughout) reports no end', async () => {
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await openMeeting(w.browser.context, PRODUCTS[0]);
  await setState(tab, 'live');
  await pause(1500);
  await setState(tab, 'left');
  await pause(1500);
  await tab.close();
  await pause(1000);
  expect(prompts()).toBe(0);
  expect(endedReports()).toEqual([]);
});

test('a call whose page crashed, its tab then closed, is reported once by the worker alone', async () => {
  await pair(w);
  await serveMeetings(w.browser.context, 'synthetic');
  const product = PRODUCTS[1];
  const tab = await openMeeting(w.browser.context, product);
  await setState(tab, 'live');
  await expect.poll(prompts).toBe(1);
  // The page's process dies: its detector says nothing more, ever.
  const crashed = new Promise((resolve) => tab.once('crash', resolve));
  const cdp = await w.browser.context.newCDPSession(tab);
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;
  // Closed from the worker (Playwright's close waits on a page that answers).
  const worker = await w.browser.worker();
  const calls = await worker.evaluate(async () => (await chrome.storage.session.get('calls')).calls as Record<string, { tabId: number }>);
  const [tabId] = Object.values(calls).map((c) => c.tabId);
  await worker.evaluate((id) => chrome.tabs.remove(id), tabId);
  await expect.poll(endedReports).toEqual([{ source_app: product.source_app, url: product.promptUrl }]);
  await pause(1500);
  expect(endedReports()).toHaveLength(1);
});

test('pages that are not meetings get no observer and send nothing', async () => {
  await pair(w);
  await w.browser.context.route('https://meet.google.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Google Meet</title><button aria-label="Leave call">x</button><button aria-label="Turn off microphone">m</button>' }),
  );
  const tab = await w.browser.context.newPage();
  await tab.goto('https://meet.google.com/landing');
  await pause(2000);
  expect(prompts()).toBe(0);
  const statuses = await (await w.browser.worker()).evaluate(() => chrome.storage.session.get(null));
  expect(Object.keys(statuses).filter((key) => key.startsWith('tab:'))).toEqual([]);
});

test('a page that becomes a meeting without loading (history.pushState) is picked up', async () => {
  await pair(w);
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await w.browser.context.newPage();
  await tab.goto('https://meet.google.com/landing');
  await setState(tab, 'live');
  await pause(1500);
  expect(prompts(), 'not a meeting URL yet').toBe(0);
  await tab.evaluate(() => history.pushState({}, '', '/abc-defg-hij'));
  await expect.poll(prompts).toBe(1);
  expect(sentBody(0).url).toBe('https://meet.google.com/abc-defg-hij');
});

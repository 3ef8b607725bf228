/**
 * Nothing leaves the machine (CONTRACT §10): every request the browser made
 * during a whole session (pairing, a call going live, the person choosing to
 * record, the badge following the recording, a marker, muting, the call
 * ending, the stop) went to the service's base URL, and the token went
 * nowhere else.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { callFiles } from '../../ui/e2e/helpers/audio';
import { badge, stored } from './helpers/browser';
import { openMeeting, PRODUCTS, serveMeetings, setState, setTitle } from './helpers/meetings';
import { pair, world, type World } from './helpers/setup';

let w: World;

interface Seen {
  url: string;
  /** The extension worker's or the frame's URL that made the request. */
  by: string;
}

/** Every request Chromium reports, with who made it (worker or frame). */
function watchRequests(world: World): Seen[] {
  const seen: Seen[] = [];
  world.browser.context.on('request', (request) => {
    let by = request.serviceWorker()?.url() ?? '';
    if (!by) {
      try {
        by = request.frame().url();
      } catch {
        by = '(no frame)';
      }
    }
    seen.push({ url: request.url(), by });
  });
  return seen;
}
let audio: string;
test.beforeAll(() => {
  audio = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-ext-audio-'));
});
test.afterAll(() => fs.rmSync(audio, { recursive: true, force: true }));
test.afterEach(async () => {
  await w?.close();
});

test('a whole session contacts the base URL and nothing else', async () => {
  test.setTimeout(180_000);
  w = await world({ model: true, audio: callFiles(audio) });
  const seen = watchRequests(w);
  const popup = await pair(w);
  await serveMeetings(w.browser.context, 'real');
  const tab = await openMeeting(w.browser.context, PRODUCTS[0]);
  await setTitle(tab, 'Privacy review');
  await setState(tab, 'live');
  await expect.poll(() => w.proxy.requests('POST', '/v1/recording/prompt').length).toBe(1);
  const { prompts } = await w.service.get<{ prompts: { prompt_id: string }[] }>('/ui/prompts');
  // The person answers on the app's record card (the person's channel).
  const answer = await w.service.call<{ meeting_id: string }>('POST', `/ui/prompts/${prompts[0].prompt_id}/answer`, { body: { answer: 'record' } });
  expect(answer.status, answer.text).toBe(200);
  // The worker awaited the answer on /v1/events: REC without waiting for a poll.
  await expect.poll(() => badge(w.browser), { timeout: 5_000 }).toBe('REC');
  await popup.reload();
  await popup.getByRole('button', { name: 'Add marker' }).click();
  await expect(popup.getByText(/Marker “Marker” added/)).toBeVisible();
  await popup.getByRole('button', { name: 'Mute microphone', exact: true }).click();
  await expect(popup.getByRole('button', { name: 'Unmute microphone', exact: true })).toBeVisible();
  await setState(tab, 'left');
  await expect.poll(() => w.proxy.requests('POST', '/v1/recording/ended').length).toBe(1);
  await w.service.call('POST', '/ui/recording/stop', { body: {} });
  await expect.poll(() => badge(w.browser), { timeout: 10_000 }).toBe('');

  const extension = `chrome-extension://${w.browser.extensionId}/`;
  const base = new URL(w.service.base);

  // 1. What the browser saw the extension and the meeting pages ask for: the
  //    extension's own files, the base URL, and the (routed) meeting pages.
  const byExtension = seen.filter((r) => r.by.startsWith(extension) || r.url.startsWith(extension));
  expect(byExtension.filter((r) => r.url.startsWith('http')).length).toBeGreaterThan(5);
  for (const request of byExtension) {
    expect(request.url.startsWith(extension) || new URL(request.url).host === base.host, request.url).toBe(true);
  }
  const byPages = seen.filter((r) => !byExtension.includes(r));
  for (const request of byPages) expect(new URL(request.url).host, 'a content script made a request').toBe('meet.google.com');

  // 2. What reached the network (the proxy sees loopback too): the token and
  //    the extension's origin only ever went to the base URL. Anything else
  //    there is Chromium's own background traffic (update and time checks,
  //    preconnects to the page's host), carrying neither, and asked for by
  //    no page and no extension code (it is absent from list 1).
  //    Pairing and the service's proof of identity (CONTRACT §12) carry no
  //    token; the token travels only in the Authorization header, never in a
  //    URL, and only after a proof.
  const token = String((await stored(w.browser)).token);
  let proved = false;
  for (const entry of w.proxy.log) {
    expect(entry.url).not.toContain(token);
    const toBase = entry.method !== 'CONNECT' && new URL(entry.url).host === base.host;
    if (toBase) {
      const path = new URL(entry.url).pathname;
      const tokenless = path === '/v1/pair' || path === '/.well-known/recorder-identity';
      if (path === '/.well-known/recorder-identity') proved = true;
      expect(entry.authorization, path).toBe(tokenless ? null : `Bearer ${token}`);
      if (!tokenless) expect(proved, `${path} before any proof`).toBe(true);
      continue;
    }
    expect(entry.authorization, entry.url).toBeNull();
    expect(entry.origin ?? '', entry.url).not.toContain(w.browser.extensionId);
    expect(byExtension.some((r) => r.url === entry.url), entry.url).toBe(false);
  }
  const paths = new Set(
    w.proxy.log.filter((e) => e.method !== 'CONNECT' && new URL(e.url).host === base.host).map((e) => `${e.method} ${new URL(e.url).pathname}`),
  );
  expect([...paths].sort()).toEqual(
    [
      'GET /.well-known/recorder-identity',
      'GET /v1/events',
      'GET /v1/health',
      'POST /v1/pair',
      'POST /v1/recording/ended',
      'POST /v1/recording/marker',
      'POST /v1/recording/mute',
      'POST /v1/recording/prompt',
    ].sort(),
  );
});

test('the extension cannot reach another host even if its code tried: its CSP blocks it', async () => {
  w = await world();
  const worker = await w.browser.worker();
  const outcome = await worker.evaluate(() =>
    fetch('https://example.com/').then(
      () => 'fetched',
      (error: Error) => `blocked: ${error.message}`,
    ),
  );
  expect(outcome).toMatch(/^blocked/);
  expect(w.proxy.log.filter((e) => e.url.includes('example.com'))).toEqual([]);
});

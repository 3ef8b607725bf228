/**
 * A call the extension prompted for ends (issue 33): leaving it, closing its
 * tab or going to another page tells the app `POST /v1/recording/ended` once,
 * with the url the prompt had, and the recording that came from that prompt
 * starts its countdown (`recording.ending`, seen in `/v1/health` and the popup).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { callFiles } from '../../ui/e2e/helpers/audio';
import { badge, shoot, stopWorkers } from './helpers/browser';
import { openMeeting, pause, PRODUCTS, serveMeetings, setState, setTitle, type Product } from './helpers/meetings';
import { pair, world, type World } from './helpers/setup';

interface Health {
  recording: { active: boolean; meeting_id?: string; muted?: boolean; ending?: { reason: string; stops_at: number | null; source_app?: string | null } };
}

let w: World;
let audio: string;
test.beforeAll(() => {
  audio = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-ext-audio-'));
});
test.afterAll(() => fs.rmSync(audio, { recursive: true, force: true }));
test.beforeEach(async () => {
  w = await world({ model: true, audio: callFiles(audio) });
});
test.afterEach(async () => {
  await w?.close();
});

const prompts = () => w.proxy.requests('POST', '/v1/recording/prompt').length;
const endedReports = () => w.proxy.requests('POST', '/v1/recording/ended').map((r) => JSON.parse(r.body) as Record<string, unknown>);
const health = () => w.service.get<Health>('/v1/health');
const ending = async () => (await health()).recording.ending ?? null;

/** A live call on `product`'s fake page that the person chose to record from the app's card. */
async function recordedCall(product: Product): Promise<Page> {
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await openMeeting(w.browser.context, product);
  await setTitle(tab, 'Weekly sync');
  await setState(tab, 'live');
  await expect.poll(prompts).toBe(1);
  const { prompts: pending } = await w.service.get<{ prompts: { prompt_id: string; url: string }[] }>('/ui/prompts');
  expect(pending[0].url).toBe(product.promptUrl);
  const answer = await w.service.call('POST', `/ui/prompts/${pending[0].prompt_id}/answer`, { body: { answer: 'record' } });
  expect(answer.status, answer.text).toBe(200);
  await expect.poll(() => badge(w.browser), { timeout: 10_000 }).toBe('REC');
  expect(await ending()).toBeNull();
  return tab;
}

/** Exactly one report, for `product`'s call, and the app counting down to the stop. */
async function expectOneEnd(product: Product): Promise<void> {
  await expect.poll(() => endedReports().length).toBe(1);
  expect(endedReports()[0]).toEqual({ source_app: product.source_app, url: product.promptUrl });
  const countdown = await ending();
  expect(countdown?.reason).toBe('call_ended');
  expect(countdown?.stops_at).toBeGreaterThan(Date.now());
  await pause(2000);
  expect(endedReports(), 'reported once').toHaveLength(1);
  expect((await health()).recording.active, 'a countdown, not a stop').toBe(true);
}

for (const product of PRODUCTS) {
  test(`${product.label}: leaving a recorded call reports its end once; the app counts down`, async () => {
    test.setTimeout(180_000);
    const popup = await pair(w);
    const tab = await recordedCall(product);
    await pause(1000);
    expect(endedReports(), 'nothing while the call is on').toEqual([]);
    await setState(tab, 'left');
    await expectOneEnd(product);
    // The popup shows the countdown the worker heard (the reply, then `recording.ending`).
    await popup.reload();
    await expect(popup.getByText(/^The call ended — stopping in \d+ s$/)).toBeVisible();
    if (product.source_app === 'google_meet') await shoot(popup, 'popup-call-ended-countdown');
  });
}

test('closing the tab of a recorded call reports its end once, even from a worker the browser had stopped', async () => {
  test.setTimeout(180_000);
  const popup = await pair(w);
  const product = PRODUCTS[0];
  const tab = await recordedCall(product);
  // The calls live in storage.session: a stopped worker started again by
  // tabs.onRemoved still knows which url the prompt had.
  await pause(1000);
  await stopWorkers(w.browser, popup);
  await tab.close();
  await expectOneEnd(product);
});

test('going to another page from a recorded call reports its end once', async () => {
  test.setTimeout(180_000);
  await pair(w);
  const product = PRODUCTS[2];
  const tab = await recordedCall(product);
  await w.browser.context.route('https://example.org/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Elsewhere</title><p>Not a meeting</p>' }),
  );
  await tab.goto('https://example.org/');
  await expectOneEnd(product);
});

test('the end of another call (not the recorded one) is reported, and the app keeps recording', async () => {
  test.setTimeout(180_000);
  await pair(w);
  await recordedCall(PRODUCTS[0]);
  // A second call goes live while the first is recorded: the app says it is
  // already recording (409), and its end changes nothing there.
  const teams = PRODUCTS[2];
  const other = await openMeeting(w.browser.context, teams);
  await setState(other, 'live');
  await expect.poll(prompts).toBe(2);
  await other.close();
  await expect.poll(endedReports).toEqual([{ source_app: teams.source_app, url: teams.promptUrl }]);
  await pause(1500);
  expect(await ending(), 'no countdown for another call').toBeNull();
  expect((await health()).recording.active).toBe(true);
});

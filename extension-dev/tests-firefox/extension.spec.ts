/**
 * The Firefox build (target/extension-firefox/: extension/'s files with
 * extension-firefox/manifest.json) in Debian's Firefox ESR, driven by
 * Puppeteer over WebDriver BiDi: pairing, one prompt per live call on the fake
 * Meet, Zoom and Teams pages, the badge, muting, and the call-ended report.
 * One browser and one service for the whole file, to stay short.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { callFiles } from '../../ui/e2e/helpers/audio';
import { pause, PRODUCTS } from '../tests/helpers/meetings';
import { pairingCode } from '../tests/helpers/setup';
import { badge, shoot, showsText, until } from './helpers/firefox';
import { firefoxWorld, openMeeting, setState, setTitle, type FirefoxWorld } from './helpers/world';

interface Prompt {
  prompt_id: string;
  source_app: string;
  title: string;
  url: string;
}

let w: FirefoxWorld;
let audio: string;
test.beforeAll(async () => {
  audio = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-ext-audio-'));
  w = await firefoxWorld({ model: true, audio: callFiles(audio) });
});
test.afterAll(async () => {
  await w?.close();
  fs.rmSync(audio, { recursive: true, force: true });
});

const prompts = () => w.proxy.requests('POST', '/v1/recording/prompt');
const endedReports = () => w.proxy.requests('POST', '/v1/recording/ended').map((r) => JSON.parse(r.body) as Record<string, unknown>);
const pending = async () => (await w.service.get<{ prompts: Prompt[] }>('/ui/prompts')).prompts;
/** The prompt the app shows: the proxy logs the extension's request before the
 * service has answered it, so this waits for it. */
async function shownPrompt(): Promise<Prompt> {
  await until(async () => (await pending()).length > 0, true, 5_000, 'a prompt shown in the app');
  return (await pending())[0];
}

async function popup(): Promise<Page> {
  const page = await w.firefox.extensionPage('popup/popup.html');
  await page.setViewport({ width: 340, height: 560 });
  return page;
}

/** Pairs through the popup as a person does, unless an earlier test did. */
async function paired(): Promise<Page> {
  const page = await popup();
  const token = await w.firefox.api(async () => (await (globalThis as unknown as { browser: typeof chrome }).browser.storage.local.get('token')).token, null);
  if (typeof token !== 'string') {
    await showsText(page, 'Not paired');
    await page.type('#code', await pairingCode(w.service));
    await page.click('#pair');
  }
  await showsText(page, 'Ready, not recording');
  return page;
}

async function answer(prompt: Prompt, choice: 'record' | 'decline'): Promise<void> {
  const reply = await w.service.call('POST', `/ui/prompts/${prompt.prompt_id}/answer`, { body: { answer: choice } });
  expect(reply.status, reply.text).toBe(200);
}

test('pairs with the code the app shows; the badge goes from PAIR to empty', async () => {
  await until(() => badge(w.firefox), 'PAIR', 10_000, 'badge');
  const page = await popup();
  await showsText(page, 'Not paired');
  await shoot(page, 'firefox-popup-unpaired');
  await page.type('#code', await pairingCode(w.service));
  await page.click('#pair');
  await showsText(page, 'Ready, not recording');
  await until(() => badge(w.firefox), '', 10_000, 'badge');
  const pairings = await w.service.get<{ pairings: unknown[] }>('/ui/pairings');
  expect(pairings.pairings).toHaveLength(1);
  await shoot(page, 'firefox-popup-idle');
  await page.close();
});

for (const product of PRODUCTS) {
  test(`${product.label}: one prompt per live call; leaving reports the end once with the prompt's url`, async () => {
    await (await paired()).close();
    const before = prompts().length;
    const endedBefore = endedReports().length;
    const tab = await openMeeting(w.firefox, product);
    await setTitle(tab, 'Weekly sync');
    await setState(tab, 'lobby');
    await setState(tab, 'muted');
    await pause(800);
    expect(prompts().length - before, 'no prompt in the lobby or while muted').toBe(0);
    await setState(tab, 'live');
    await until(() => prompts().length - before, 1, 10_000, 'prompts');
    const sent = JSON.parse(prompts()[before].body) as Prompt;
    expect(sent.source_app).toBe(product.source_app);
    expect(sent.url).toBe(product.promptUrl);
    expect(sent.title).toBe(product.title('synthetic'));
    const shown = await shownPrompt();
    expect(shown.url).toBe(product.promptUrl);
    await setState(tab, 'muted');
    await pause(300);
    await setState(tab, 'live');
    await pause(800);
    expect(prompts().length - before, 'one prompt per call').toBe(1);
    await answer(shown, 'decline');
    await setState(tab, 'left');
    await until(() => endedReports().length - endedBefore, 1, 10_000, 'ended reports');
    expect(endedReports()[endedBefore]).toEqual({ source_app: product.source_app, url: product.promptUrl });
    await tab.close();
    await pause(500);
    expect(endedReports().length - endedBefore, 'reported once').toBe(1);
  });
}

test('teams.cloud.microsoft is recognised; going to another page reports the end once', async () => {
  await (await paired()).close();
  const before = prompts().length;
  const endedBefore = endedReports().length;
  const url = 'https://teams.cloud.microsoft/v2/?meetingjoin=true#/l/meetup-join/19:meeting_Y2xvdWQx@thread.v2/0';
  const tab = await openMeeting(w.firefox, PRODUCTS[2], url);
  await setState(tab, 'live');
  await until(() => prompts().length - before, 1, 10_000, 'prompts');
  const shown = await shownPrompt();
  expect(shown.source_app).toBe('teams');
  expect(shown.url).toBe(url);
  await answer(shown, 'decline');
  // A page no content script runs on (the fake host answers 404 there).
  await tab.goto('https://app.zoom.us/signin');
  await until(() => endedReports().length - endedBefore, 1, 10_000, 'ended reports');
  expect(endedReports()[endedBefore]).toEqual({ source_app: 'teams', url });
  await pause(500);
  expect(endedReports().length - endedBefore, 'reported once').toBe(1);
  await tab.close();
});

test('REC while recording, muting from the popup, and closing the tab of the call reports its end once', async () => {
  const page = await paired();
  const product = PRODUCTS[0];
  const before = prompts().length;
  const endedBefore = endedReports().length;
  const tab = await openMeeting(w.firefox, product);
  await setState(tab, 'live');
  await until(() => prompts().length - before, 1, 10_000, 'prompts');
  const shown = await shownPrompt();
  await answer(shown, 'record');
  // The worker awaits the answer on /v1/events: REC without waiting for a poll.
  await until(() => badge(w.firefox), 'REC', 5_000, 'badge');
  await showsText(page, 'Recording');
  await page.click('#mute');
  await page.waitForSelector('#mute[aria-pressed="true"]', { timeout: 5_000 });
  expect(await page.$eval('#mute', (b) => b.textContent)).toBe('Unmute microphone');
  const health = () => w.service.get<{ recording: { active: boolean; muted?: boolean; ending?: { reason: string } } }>('/v1/health');
  expect((await health()).recording.muted).toBe(true);
  await shoot(page, 'firefox-popup-recording-muted');

  await tab.close();
  await until(() => endedReports().length - endedBefore, 1, 10_000, 'ended reports');
  expect(endedReports()[endedBefore]).toEqual({ source_app: product.source_app, url: product.promptUrl });
  await until(async () => (await health()).recording.ending?.reason ?? null, 'call_ended', 10_000, 'the countdown');
  await page.waitForFunction(() => /^The call ended — stopping in \d+ s$/.test(document.getElementById('ending')?.textContent ?? ''), {
    timeout: 10_000,
  });
  await shoot(page, 'firefox-popup-countdown');
  await pause(1000);
  expect(endedReports().length - endedBefore, 'reported once').toBe(1);

  const stopped = await w.service.call('POST', '/ui/recording/stop', { body: {} });
  expect(stopped.status, stopped.text).toBeLessThan(300);
  await until(() => badge(w.firefox), '', 10_000, 'badge');

  // The token went only to the base URL, and only after the service's proof.
  const base = new URL(w.service.base).host;
  const token = await w.firefox.api(async () => (await (globalThis as unknown as { browser: typeof chrome }).browser.storage.local.get('token')).token, null);
  expect(typeof token).toBe('string');
  for (const entry of w.proxy.log) {
    expect(entry.url).not.toContain(String(token));
    if (entry.authorization !== null) expect(new URL(entry.url).host, entry.url).toBe(base);
  }
});

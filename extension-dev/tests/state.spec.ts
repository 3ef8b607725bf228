/**
 * The badge mirrors the app (CONTRACT §10): REC while recording, empty when
 * idle, "!" when the app cannot be reached, PAIR when not paired; markers from
 * the popup land on the meeting.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { callFiles } from '../../ui/e2e/helpers/audio';
import { badge, openPopup, shoot, stopWorkers } from './helpers/browser';
import { openMeeting, pause, PRODUCTS, serveMeetings, setState } from './helpers/meetings';
import { pair, world, type World } from './helpers/setup';

// The health poll runs every 30 s: a change the worker cannot hear shows
// within one period (plus the alarm's own slack).
const POLL = { timeout: 45_000, intervals: [500] };

let w: World;
let audio: string;
test.beforeAll(() => {
  audio = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-ext-audio-'));
});
test.afterAll(() => fs.rmSync(audio, { recursive: true, force: true }));
test.beforeEach(async () => {
  const { mic, sys } = callFiles(audio);
  w = await world({ model: true, audio: { mic, sys, speed: 1 } });
});
test.afterEach(async () => {
  await w?.close();
});

async function startRecording(): Promise<string> {
  const started = await w.service.call<{ id: string }>('POST', '/ui/recording/start', { body: { source_app: 'recorder', title: 'Badge check' } });
  expect(started.status, started.text).toBeLessThan(300);
  return started.body.id;
}

async function stopRecording(): Promise<void> {
  const stopped = await w.service.call('POST', '/ui/recording/stop', { body: {} });
  expect(stopped.status, stopped.text).toBeLessThan(300);
}

test('REC while recording (health poll), empty after stop (events), marker from the popup lands', async () => {
  test.setTimeout(180_000);
  const popup = await pair(w);
  const meetingId = await startRecording();
  await expect.poll(() => badge(w.browser), POLL).toBe('REC');
  await expect(popup.getByText('Recording', { exact: true })).toBeVisible();
  await popup.getByLabel('Marker label').fill('Budget decision');
  await popup.getByRole('button', { name: 'Add marker' }).click();
  await expect(popup.getByRole('status').filter({ hasText: 'Budget decision' })).toBeVisible();
  await shoot(popup, 'popup-recording-marker');
  await popup.emulateMedia({ colorScheme: 'dark' });
  await shoot(popup, 'popup-recording-marker-dark');
  const meeting = await w.service.get<{ markers: { label: string; at_ms: number }[] }>(`/ui/meetings/${meetingId}`);
  expect(meeting.markers.map((m) => m.label)).toContain('Budget decision');
  // The worker follows /v1/events while recording: the stop shows at once,
  // well before the next health poll could.
  const eventsBefore = w.proxy.requests('GET', '/v1/events').length;
  expect(eventsBefore).toBeGreaterThan(0);
  const stoppedAt = Date.now();
  await stopRecording();
  await expect.poll(() => badge(w.browser), { timeout: 10_000 }).toBe('');
  expect(Date.now() - stoppedAt).toBeLessThan(25_000);
  await expect(popup.getByText('Ready, not recording')).toBeVisible();
});

test("the popup mutes and unmutes your microphone in the recording; the app's own button shows there too", async () => {
  test.setTimeout(180_000);
  const popup = await pair(w);
  await startRecording();
  // Opening the popup asks for a health check: no wait for the 30 s poll.
  await popup.reload();
  await expect.poll(() => badge(w.browser), { timeout: 10_000 }).toBe('REC');
  const mute = popup.getByRole('button', { name: 'Mute microphone', exact: true });
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  await shoot(popup, 'popup-recording');
  await mute.click();
  const unmute = popup.getByRole('button', { name: 'Unmute microphone', exact: true });
  await expect(unmute).toHaveAttribute('aria-pressed', 'true');
  await expect(popup.getByText('Recording, your microphone muted')).toBeVisible();
  const sent = w.proxy.requests('POST', '/v1/recording/mute');
  expect(sent.map((r) => JSON.parse(r.body))).toEqual([{ muted: true }]);
  const health = () => w.service.get<{ recording: { muted?: boolean } }>('/v1/health');
  expect((await health()).recording.muted).toBe(true);
  await shoot(popup, 'popup-recording-muted');
  await popup.emulateMedia({ colorScheme: 'dark' });
  await shoot(popup, 'popup-recording-muted-dark');
  await popup.emulateMedia({ colorScheme: 'light' });
  // The app's own button: the worker hears `recording.muted` and the popup follows.
  const fromApp = await w.service.call('POST', '/ui/recording/mute', { body: { muted: false } });
  expect(fromApp.status, fromApp.text).toBe(200);
  await expect(mute).toHaveAttribute('aria-pressed', 'false', { timeout: 5_000 });
  // And the popup's button again, the other way.
  await mute.click();
  await expect(unmute).toHaveAttribute('aria-pressed', 'true');
  await unmute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  expect((await health()).recording.muted).toBe(false);
  expect(w.proxy.requests('POST', '/v1/recording/mute').map((r) => JSON.parse(r.body))).toEqual([{ muted: true }, { muted: true }, { muted: false }]);
  // Stopped, the button goes with the recording.
  await stopRecording();
  await expect.poll(() => badge(w.browser), { timeout: 10_000 }).toBe('');
  await expect(popup.locator('#mic-card')).toBeHidden();
});

test('a worker Chrome stopped reconnects with Last-Event-ID; a stop it missed shows at the next wake-up', async () => {
  test.setTimeout(180_000);
  const popup = await pair(w);
  await startRecording();
  await expect.poll(() => badge(w.browser), POLL).toBe('REC');
  await expect.poll(() => w.proxy.requests('GET', '/v1/events').length).toBe(1);
  // The worker keeps the last event id in storage.session every few seconds.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  await stopWorkers(w.browser, popup);
  // The alarm wakes it; still recording, it follows again from where it was.
  await expect.poll(() => w.proxy.requests('GET', '/v1/events').length, POLL).toBe(2);
  const resumed = w.proxy.requests('GET', '/v1/events')[1];
  expect(Number(resumed.lastEventId)).toBeGreaterThan(0);
  await stopRecording();
  await expect.poll(() => badge(w.browser), { timeout: 10_000 }).toBe('');
  // Stopped again, it misses the next recording's start and stop entirely:
  // the next health check shows what is true now.
  await startRecording();
  await expect.poll(() => badge(w.browser), POLL).toBe('REC');
  await stopWorkers(w.browser, popup);
  await stopRecording();
  await expect.poll(() => badge(w.browser), POLL).toBe('');
});

test('the app going away shows "!", and its return clears it', async () => {
  test.setTimeout(180_000);
  const popup = await pair(w);
  await w.service.kill();
  await expect.poll(() => badge(w.browser), POLL).toBe('!');
  const again = await openPopup(w.browser);
  await expect(again.getByText('Recorder is not running', { exact: true })).toBeVisible();
  await expect(again.getByText('recorder serve')).toBeVisible();
  await shoot(again, 'popup-app-down');
  await w.service.restart();
  await expect.poll(() => badge(w.browser), POLL).toBe('');
  await expect(popup.getByText('Ready, not recording')).toBeVisible();
});

test('a call going live while the app records (409 already_recording): REC at once, nothing more asked', async () => {
  await pair(w);
  await startRecording();
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await openMeeting(w.browser.context, PRODUCTS[0]);
  await setState(tab, 'live');
  const prompts = () => w.proxy.requests('POST', '/v1/recording/prompt').length;
  await expect.poll(prompts).toBe(1);
  // Well before the next health poll: the 409 itself says the app records.
  await expect.poll(() => badge(w.browser), { timeout: 5_000 }).toBe('REC');
  await pause(3000);
  expect(prompts()).toBe(1);
  const { prompts: pending } = await w.service.get<{ prompts: unknown[] }>('/ui/prompts');
  expect(pending).toEqual([]);
});

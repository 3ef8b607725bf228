import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect, settled, sleep } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { EventLog } from '../helpers/events';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Meeting } from '../helpers/service';

// Calls that end themselves (issue 33): a recording that came from a prompt
// counts down after its call ended ("The call ended — stopping in N s", "Keep
// recording", "Stop now") on every page and then stops, saying why; the
// microphone can be muted; and Settings → Recording holds the three settings.
// Real service, file audio (--mic-file/--sys-file), calls reported as the
// extension reports them (POST /v1/recording/prompt, POST /v1/recording/ended).

let service: Service;
let folder: string;

interface Health {
  recording: { active: boolean; meeting_id?: string | null; muted?: boolean; ending?: { reason: string; stops_at: number } };
}
interface Ended {
  stopping: boolean;
  meeting_id: string | null;
  stops_at: number | null;
}

test.beforeAll(async () => {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-calls-'));
  const { mic, sys } = callFiles(folder);
  service = await Service.start({ model: true, audio: { mic, sys, speed: 2 } });
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test.afterEach(async () => {
  // Whatever a test left running stops before the next one.
  const health = await service.get<Health>('/ui/health');
  if (health.recording.active) await service.call('POST', '/ui/recording/stop');
});

async function health(): Promise<Health['recording']> {
  return (await service.get<Health>('/ui/health')).recording;
}

async function setting(key: string, value: unknown): Promise<void> {
  const reply = await service.call('PATCH', '/ui/settings', { body: { recording: { [key]: value } } });
  expect(reply.status, reply.text).toBe(200);
}

async function ready(page: Page, p: string): Promise<void> {
  await page.goto(service.url(p));
  await settled(page);
}

const recordCard = (page: Page) => page.getByRole('dialog', { name: 'Record this meeting?' });
const callEnded = (page: Page) => page.getByRole('dialog', { name: 'The call ended' });

/** A call in a browser tab, as the extension reports it; the person answers Record on `page`. Returns the meeting id. */
async function recordCall(page: Page, url: string, title: string): Promise<string> {
  const asked = await service.call<{ prompt_id: string }>('POST', '/v1/recording/prompt', {
    body: { source_app: 'google_meet', title, url, attendees: [{ name: 'Lin' }] },
  });
  expect(asked.status, asked.text).toBe(200);
  await recordCard(page).getByRole('button', { name: 'Record', exact: true }).click();
  await expect(recordCard(page)).toHaveCount(0);
  await expect.poll(async () => (await health()).active).toBe(true);
  return (await health()).meeting_id!;
}

async function reportEnded(url: string): Promise<Ended> {
  const reply = await service.call<Ended>('POST', '/v1/recording/ended', { body: { source_app: 'google_meet', url } });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function shoot(page: Page, name: string, widths = [1280, 400]): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      const file = path.join(SCREENSHOT_DIR, `${name}-${width}-${scheme}.png`);
      await page.screenshot({ path: file, animations: 'disabled' });
      expect(fs.statSync(file).size).toBeGreaterThan(1000);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** No serious or critical axe violation, light and dark. */
async function axe(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    await testInfo.attach(`axe-${name}-${scheme}.json`, {
      body: JSON.stringify(results.violations, null, 2),
      contentType: 'application/json',
    });
    const severe = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `[${v.impact}] ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`);
    expect.soft(severe, `serious/critical axe violations on ${name} (${scheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the call ended: the countdown card shows on every page, and "Keep recording" calls it off', async ({ page, context }) => {
  await setting('stop_after_call_ends_s', 8);
  await service.signIn(page);
  await ready(page, '/');
  const other = await context.newPage();
  await ready(other, '/recording');
  const log = await EventLog.open(service);
  try {
    const url = 'https://meet.google.com/abc-defg-hij';
    const id = await recordCall(page, url, 'Design review');

    // Another call's end changes nothing.
    expect((await reportEnded('https://meet.google.com/zzz-zzzz-zzz')).stopping).toBe(false);
    await sleep(300);
    await expect(callEnded(page)).toHaveCount(0);

    const ended = await reportEnded(url);
    expect(ended).toMatchObject({ stopping: true, meeting_id: id });
    for (const p of [page, other]) await expect(callEnded(p)).toBeVisible({ timeout: 5_000 });
    const card = callEnded(page);
    await expect(card.getByText(/^The call ended — stopping in \d+ s$/)).toBeVisible();
    const seconds = Number(/stopping in (\d+) s/.exec(await card.innerText())![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(8);
    await expect(card).toContainText('Design review');
    await expect(card).toContainText('Google Meet');
    await expect(card.getByRole('button', { name: 'Stop now' })).toBeVisible();
    // The recording bar is still there, and nothing covers the record card's place: both fit.
    await expect(page.getByRole('region', { name: 'Recording in progress' })).toBeVisible();
    expect((await health()).ending?.reason).toBe('call_ended');

    await card.getByRole('button', { name: 'Keep recording' }).click();
    for (const p of [page, other]) await expect(callEnded(p)).toHaveCount(0);
    await expect.poll(() => log.of<{ stops_at: number | null }>('recording.ending').map((e) => e.data.stops_at === null)).toEqual([
      false,
      true,
    ]);

    // Past the moment it would have stopped, it still records.
    await sleep(Math.max(0, ended.stops_at! - Date.now()) + 2_000);
    const now = await health();
    expect(now.active).toBe(true);
    expect(now.meeting_id).toBe(id);
    expect(now.ending).toBeUndefined();
    await expect(callEnded(page)).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'Stop recording' })).toBeVisible();
    expect(log.of('recording.stopped')).toEqual([]);
  } finally {
    await log.close();
    await other.close();
  }
});

test('the call ended: the recording stops by itself and says why; the meeting moves on', async ({ page, context }) => {
  await setting('stop_after_call_ends_s', 3);
  await service.signIn(page);
  await ready(page, '/');
  const other = await context.newPage();
  await ready(other, '/recording');
  const log = await EventLog.open(service);
  try {
    const url = 'https://meet.google.com/kkk-llll-mmm';
    const id = await recordCall(page, url, 'Short call');
    // Let a few seconds be recorded, so there is something to transcribe.
    await sleep(2_000);
    expect((await reportEnded(url)).stopping).toBe(true);
    await expect(callEnded(page)).toBeVisible({ timeout: 5_000 });

    // It stops by itself: the card goes, and each page says why.
    await expect(callEnded(page)).toHaveCount(0, { timeout: 10_000 });
    await expect.poll(async () => (await health()).active).toBe(false);
    const stopped = log.of<{ meeting_id: string; reason: string }>('recording.stopped');
    expect(stopped.map((e) => e.data)).toEqual([expect.objectContaining({ meeting_id: id, reason: 'call_ended' })]);

    const notice = page.getByRole('status').filter({ hasText: 'Recording stopped: the call ended' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('it is being transcribed');
    await expect(other.getByText('Recording stopped: the call ended. It is being transcribed now.')).toBeVisible();
    await expect(other.getByRole('button', { name: 'Start recording' })).toBeVisible();
    await shoot(page, 'stopped-call-ended', [1280, 400]);
    await shoot(other, 'recording-stopped-call-ended', [1280]);

    // The meeting moved on from recording, and the notice leads to it.
    await expect.poll(async () => (await service.get<Meeting>(`/ui/meetings/${id}`)).status).not.toBe('recording');
    await notice.getByRole('link', { name: 'Open the meeting' }).click();
    await expect(page).toHaveURL(new RegExp(`/meetings/${id}$`));
    await settled(page);
    await expect(page.getByRole('textbox', { name: 'Meeting title' })).toHaveValue('Short call');
    await service.waitForStatus(id, 'ready');
  } finally {
    await log.close();
    await other.close();
  }
});

test('the countdown card: screenshots, axe, and "Stop now" stops at once', async ({ page }, testInfo) => {
  await setting('stop_after_call_ends_s', 300);
  await service.signIn(page);
  await ready(page, '/');
  const url = 'https://meet.google.com/sss-tttt-uuu';
  // Two calls ask at once: the first is recorded, the second still waits for an answer.
  const first = await service.call<{ prompt_id: string }>('POST', '/v1/recording/prompt', {
    body: { source_app: 'google_meet', title: 'Weekly sync', url },
  });
  expect(first.status, first.text).toBe(200);
  const second = await service.call<{ prompt_id: string }>('POST', '/v1/recording/prompt', {
    body: { source_app: 'zoom', title: 'Zoom call' },
  });
  expect(second.status, second.text).toBe(200);
  await expect(recordCard(page)).toContainText('Weekly sync');
  await recordCard(page).getByRole('button', { name: 'Record', exact: true }).click();
  await expect.poll(async () => (await health()).active).toBe(true);
  await reportEnded(url);
  const card = callEnded(page);
  await expect(card).toBeVisible({ timeout: 5_000 });
  // Past a minute the time left reads in minutes and seconds.
  await expect(card.getByRole('heading')).toHaveText(/^The call ended — stopping in (5 min|4 min \d+ s)$/);
  // Both cards show, one above the other; the countdown leaves the focus with the waiting prompt.
  await expect(recordCard(page)).toContainText('Zoom call');
  await expect(card).toBeVisible();
  await expect(recordCard(page).getByRole('button', { name: 'Record', exact: true })).toBeFocused();
  const [upper, lower] = [await card.boundingBox(), await recordCard(page).boundingBox()];
  expect(upper!.y + upper!.height, 'the countdown card sits above the record card').toBeLessThanOrEqual(lower!.y);
  await shoot(page, 'countdown-and-record-card', [1280]);
  await recordCard(page).getByRole('button', { name: 'Not now' }).click();
  await expect(recordCard(page)).toHaveCount(0);
  await shoot(page, 'countdown-card');

  await ready(page, '/recording');
  await expect(card).toBeVisible();
  await shoot(page, 'countdown-card-recording', [1280]);
  await axe(page, 'countdown-card', testInfo);

  await card.getByRole('button', { name: 'Stop now' }).click();
  await expect(card).toHaveCount(0);
  await expect.poll(async () => (await health()).active).toBe(false);
  // A person's stop needs no reason.
  await expect(page.getByText('Recording stopped. It is being transcribed now.')).toBeVisible();
  await expect(page.getByText(/Recording stopped: the call ended/)).toHaveCount(0);
});

test('mute: the microphone is muted and on again from the recording page and the bar', async ({ page, context }, testInfo) => {
  await service.signIn(page);
  await ready(page, '/recording');
  const bar = await context.newPage();
  await ready(bar, '/');
  const log = await EventLog.open(service);
  try {
    await page.getByRole('button', { name: 'Start recording' }).click();
    await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible();
    const id = (await health()).meeting_id!;
    const region = bar.getByRole('region', { name: 'Recording in progress' });
    await expect(region).toBeVisible();

    const mute = page.getByRole('button', { name: 'Mute microphone' });
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    await expect(region.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'false');
    await mute.click();

    const unmute = page.getByRole('button', { name: 'Unmute microphone' });
    await expect(unmute).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('meter', { name: 'You' })).toHaveAccessibleDescription('Muted');
    await expect(page.locator('#meter-mic-muted')).toHaveText('Muted');
    await expect(page.locator('#meter-mic-muted')).toBeVisible();
    await expect.poll(async () => (await health()).muted).toBe(true);
    await expect.poll(() => log.of('recording.muted').map((e) => e.data)).toEqual([{ meeting_id: id, muted: true }]);
    // The other page follows the event.
    await expect(region.getByRole('button', { name: 'Unmute microphone' })).toHaveAttribute('aria-pressed', 'true');
    await expect(region.getByText('Microphone muted')).toBeVisible();

    await expect(page.getByRole('log', { name: 'Live transcript' })).toContainText(/march/i, { timeout: 60_000 });
    await shoot(page, 'recording-muted');
    await axe(page, 'recording-muted', testInfo);

    // A page opened now reads it from the health check.
    await bar.reload();
    await settled(bar);
    await expect(region.getByRole('button', { name: 'Unmute microphone' })).toHaveAttribute('aria-pressed', 'true');
    await shoot(bar, 'library-recording-bar-muted', [1280, 400]);

    // On again, from the bar.
    await region.getByRole('button', { name: 'Unmute microphone' }).click();
    await expect(region.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'false');
    await expect(page.locator('#meter-mic-muted')).toHaveCount(0);
    await expect.poll(async () => (await health()).muted ?? false).toBe(false);
    await expect
      .poll(() => log.of<{ muted: boolean }>('recording.muted').map((e) => e.data.muted))
      .toEqual([true, false]);

    // A program muting it (POST /v1/recording/mute) shows too.
    const muted = await service.call('POST', '/v1/recording/mute', { body: { muted: true } });
    expect(muted.status, muted.text).toBe(200);
    await expect(page.getByRole('button', { name: 'Unmute microphone' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Unmute microphone' }).click();
    await expect(page.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'false');

    await page.getByRole('button', { name: 'Stop recording' }).click();
    await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
    const markers = (await service.get<Meeting>(`/ui/meetings/${id}`)).markers ?? [];
    expect(markers.map((m) => m.label)).toEqual(
      expect.arrayContaining(['Microphone muted', 'Microphone on']),
    );
  } finally {
    await log.close();
    await bar.close();
  }
});

test('Settings → Recording: notice meeting apps, stop when the call ends, stop after silence', async ({ page }) => {
  await setting('stop_after_call_ends_s', 30);
  await service.signIn(page);
  await ready(page, '/settings/recording');
  const notice = page.getByRole('checkbox', { name: 'Notice meeting apps' });
  const callEnds = page.getByRole('combobox', { name: 'Stop when the call ends' });
  const silence = page.getByRole('combobox', { name: 'Stop after silence' });
  await expect(notice).toBeChecked();
  await expect(notice).toHaveAccessibleDescription(/Zoom, Microsoft Teams, Slack, Discord, Webex, Skype, Signal or Element/);
  await expect(notice).toHaveAccessibleDescription(/only asks/);
  await expect(callEnds).toHaveValue('30');
  await expect(silence).toHaveValue('10');
  expect(await callEnds.locator('option').allInnerTexts()).toEqual(['Never', '15 s', '30 s', '1 min', '2 min', '5 min']);
  expect(await silence.locator('option').allInnerTexts()).toEqual(['Never', '5 min', '10 min', '15 min', '30 min', '60 min']);

  await notice.uncheck();
  await callEnds.selectOption({ label: '2 min' });
  await silence.selectOption({ label: 'Never' });
  await page.getByRole('button', { name: 'Save recording settings' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  const saved = (await service.get<Record<string, Record<string, unknown>>>('/ui/settings')).recording;
  expect(saved).toMatchObject({ detect_meeting_apps: false, stop_after_call_ends_s: 120, stop_after_silence_min: 0 });

  // What is saved is what the page shows after a reload; a value written by hand shows as itself.
  await setting('stop_after_call_ends_s', 45);
  await page.reload();
  await settled(page);
  await expect(notice).not.toBeChecked();
  await expect(callEnds).toHaveValue('45');
  await expect(callEnds.locator('option:checked')).toHaveText('45 s');
  await expect(silence).toHaveValue('0');
  await expect(silence.locator('option:checked')).toHaveText('Never');

  await notice.check();
  await callEnds.selectOption({ label: '30 s' });
  await silence.selectOption({ label: '10 min' });
  await page.getByRole('button', { name: 'Save recording settings' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  expect((await service.get<Record<string, Record<string, unknown>>>('/ui/settings')).recording).toMatchObject({
    detect_meeting_apps: true,
    stop_after_call_ends_s: 30,
    stop_after_silence_min: 10,
  });
});

test('a desktop app\'s call: the record card names the app', async ({ page }) => {
  await service.signIn(page);
  await ready(page, '/');
  const asked = await service.call<{ prompt_id: string }>('POST', '/v1/recording/prompt', {
    body: { source_app: 'teams', title: 'Microsoft Teams call' },
  });
  expect(asked.status, asked.text).toBe(200);
  const card = recordCard(page);
  await expect(card).toBeVisible();
  await expect(card).toContainText('Microsoft Teams call');
  await expect(card).toContainText('Microsoft Teams app');
  await expect(card.getByRole('button', { name: 'Always record teams' })).toBeVisible();
  await card.getByRole('button', { name: 'Not now' }).click();
  await expect(card).toHaveCount(0);
});

test('silence: "Nothing heard for a while" counts down, then the recording stops and says why', async ({ browser }) => {
  // Its own service: audio at 8× (the silence is counted in recorded audio), a one-minute silence stop.
  const quiet = await Service.start({
    model: true,
    audio: { mic: path.join(folder, 'mic.wav'), sys: path.join(folder, 'sys.wav'), speed: 8 },
    settings: { recording: { stop_after_silence_min: 1 } },
  });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await quiet.signIn(page);
    await page.goto(quiet.url('/recording'));
    await settled(page);
    await page.getByRole('button', { name: 'Start recording' }).click();
    await expect(page.getByRole('button', { name: 'Stop recording' })).toBeVisible();

    // About 12 s of speech, then a minute of silence: at 8× the card comes after some 9 s.
    const card = page.getByRole('dialog', { name: 'Nothing heard for a while' });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText(/^Nothing has been heard for 1 minute — stopping (in \d+ s|now)$/)).toBeVisible();
    await expect(card.getByRole('button', { name: 'Keep recording' })).toBeVisible();

    await expect(card).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
    await expect(page.getByText('Recording stopped: nothing was heard for 1 minute. It is being transcribed now.')).toBeVisible();
    const state = (await quiet.get<Health>('/ui/health')).recording;
    expect(state.active).toBe(false);
  } finally {
    await context.close();
    await quiet.stop();
  }
});

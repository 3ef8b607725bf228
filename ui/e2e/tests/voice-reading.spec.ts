import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, settled } from '../helpers/fixtures';
import { realReading, speakPadded } from '../helpers/audio';
import { REPO, SCREENSHOT_DIR } from '../helpers/paths';
import { Service } from '../helpers/service';

// The owner's voice from a reading (issue 49): Settings → Speakers → "Read to
// learn my voice" listens to the microphone (here a real voice, played at twice
// real time) while the person reads a short text, and learns their voice.

const MODELS = process.env.RECORDER_TEST_MODELS ?? path.join(REPO, 'target', 'test-models');

let service: Service;
let folder: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-reading-'));
  const mic = path.join(folder, 'mic.wav');
  const sys = path.join(folder, 'sys.wav');
  realReading(MODELS, mic);
  speakPadded('Hello.', sys, 30, 1);
  service = await Service.start({
    model: true,
    audio: { mic, sys, speed: 2 },
    settings: { general: { user_name: 'Ada' } },
    env: {
      RECORDER_SPEAKER_MODEL_PATH: path.join(MODELS, 'speaker-campplus.safetensors'),
      // 8 s of listening: 16 s of the file.
      RECORDER_READING_SECS: '8',
    },
  });
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('reading a short text aloud teaches Recorder the owner’s voice', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/speakers'));
  await settled(page);
  await expect(page.getByText(/Not learned yet\. It is learned from meetings where only you speak/)).toBeVisible();

  await page.getByRole('button', { name: 'Read to learn my voice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Read to learn your voice' });
  await expect(dialog.getByText(/My day usually starts with a short meeting/)).toBeVisible();
  const meter = dialog.getByRole('meter', { name: 'Microphone level' });
  await expect(meter).toBeVisible();
  await expect(dialog.getByText(/\d+ seconds? left/)).toBeVisible();
  // The voice moves the meter while it listens.
  await expect.poll(() => meter.evaluate((m: HTMLMeterElement) => m.value), { timeout: 8_000 }).toBeGreaterThan(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'voice-reading-listening.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'voice-reading-listening-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await expect(dialog.getByText('Your voice is learned from your reading.')).toBeVisible({ timeout: 30_000 });
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'voice-reading.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'voice-reading-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(severe.map((v) => `${v.id}: ${v.help}`), `axe (${scheme})`).toEqual([]);
  }
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'voice-reading-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Learned from your reading', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Forget my voice' })).toBeVisible();
  const voices = await service.call<{ owner: { enrolled: boolean; meetings: number } | null }>('GET', '/ui/voices');
  expect(voices.body.owner).toMatchObject({ enrolled: true, meetings: 0 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'voice-reading-learned.png'), fullPage: true });
});

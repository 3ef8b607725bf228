import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, settled, sleep } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { SCREENSHOT_DIR, TEST_MODEL } from '../helpers/paths';
import { Service } from '../helpers/service';

// A first run as a new user has it: no settings.json and no transcription
// model. The first-run guide opens and can be dismissed and opened again;
// the library and recording pages say no model is installed and lead to
// Settings → Transcription, where the tiny.en test model is added from a
// local file (no download here), stands in for the default model without
// being chosen, and the computer is measured; the guide's
// devices check moves its meters; and a recording then gets a transcript.

let service: Service;
let folder: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-first-'));
  const { mic, sys } = callFiles(folder);
  service = await Service.start({ firstRun: true, audio: { mic, sys, speed: 2 } });
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('the guide, the notice, a model from a file, the devices check and a first recording', async ({ page }) => {
  test.setTimeout(180_000);
  await service.signIn(page);
  await page.goto(service.url('/'));
  await settled(page);

  // The guide opens by itself on a first run, on its first step.
  const guide = page.getByRole('dialog', { name: 'Welcome to Recorder' });
  await expect(guide).toBeVisible();
  await expect(guide.getByRole('heading', { name: '1. A transcription model' })).toBeVisible();
  await expect(guide.getByRole('button', { name: 'Install base.en-q8_0' })).toBeVisible();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'first-run-guide.png') });

  // Skipping it is remembered.
  await guide.getByRole('button', { name: 'Skip the guide' }).click();
  await expect(guide).toBeHidden();
  await expect.poll(async () => (await service.get<{ general: { show_first_run_guide: boolean } }>('/ui/settings')).general.show_first_run_guide).toBe(false);
  await page.reload();
  await settled(page);
  await expect(guide).toBeHidden();

  // No model: the library says so and leads to Settings → Transcription.
  const notice = page.getByRole('status').filter({ hasText: 'No transcription model is installed yet' });
  await expect(notice).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'first-run-library-no-model.png') });
  await page.goto(service.url('/recording'));
  await settled(page);
  await expect(notice).toBeVisible();
  await notice.getByRole('link', { name: 'Install a transcription model' }).click();
  await expect(page).toHaveURL(/\/settings\/transcription$/);
  await settled(page);

  // Recommended before anything is measured: the default, with Install.
  const recommended = page.getByRole('region', { name: /Recommended for this computer/ });
  await expect(recommended).toContainText('base.en-q8_0');
  await expect(recommended).toContainText('A good start on most computers');

  // The test model from a local file: while the setting is still the default
  // (base.en, not installed), it is used without being chosen.
  await page.getByLabel('Add a model file').fill(TEST_MODEL);
  await page.getByRole('button', { name: 'Add file' }).click();
  await expect(page.getByText('In use:')).toContainText('tiny.en-q8_0');
  await expect(page.getByText('In use:')).toContainText('setting: base.en');
  await expect(page.getByRole('button', { name: 'Use tiny.en-q8_0' })).toHaveCount(0);

  // The computer is measured by itself once a model is there; the
  // recommendation then rests on the measurement.
  await expect(recommended).toContainText(/Measured [\s\S]* tiny\.en-q8_0 \d+\.\d s for 11 s/, { timeout: 60_000 });
  await expect(recommended).toContainText(/(faster than it was spoken|Estimated from how fast this computer ran tiny\.en-q8_0)/);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'first-run-recommended.png'), fullPage: true });
  const listed = await service.get<{ speeds: { results: { model: string; heard: boolean; took_ms: number }[] } }>('/ui/models');
  expect(listed.speeds.results).toEqual([expect.objectContaining({ model: 'tiny.en-q8_0', heard: true })]);
  expect(listed.speeds.results[0].took_ms).toBeGreaterThan(0);

  // The notice is gone.
  await page.goto(service.url('/'));
  await settled(page);
  await expect(notice).toBeHidden();

  // The guide again from Settings → General; its first step shows the model,
  // its second checks the devices (the file capture plays speech on both).
  await page.goto(service.url('/settings/general'));
  await settled(page);
  await page.getByRole('button', { name: 'Show the first-run guide' }).click();
  await expect(guide).toBeVisible();
  await expect(guide).toContainText('tiny.en-q8_0 is installed');
  await guide.getByRole('button', { name: 'Next' }).click();
  await expect(guide.getByRole('heading', { name: '2. Microphone and speakers' })).toBeVisible();
  await guide.getByRole('button', { name: 'Check microphone and speakers' }).click();
  const micMeter = guide.getByRole('meter', { name: 'Microphone' });
  const sysMeter = guide.getByRole('meter', { name: 'Computer sound' });
  const seen = { mic: 0, sys: 0 };
  const value = (el: Element) => (el as HTMLMeterElement).value;
  for (let i = 0; i < 100 && !(seen.mic > 0 && seen.sys > 0); i++) {
    seen.mic = Math.max(seen.mic, await micMeter.evaluate(value));
    seen.sys = Math.max(seen.sys, await sysMeter.evaluate(value));
    await sleep(100);
  }
  expect(seen.mic, 'the microphone meter moved').toBeGreaterThan(0);
  expect(seen.sys, 'the computer sound meter moved').toBeGreaterThan(0);
  await expect(guide.getByText('✓ Your microphone was heard.')).toBeVisible({ timeout: 15_000 });
  await expect(guide.getByText('✓ The computer’s sound was heard.')).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'first-run-devices.png') });
  await guide.getByRole('button', { name: 'Next' }).click();
  await guide.getByRole('button', { name: 'Next' }).click();
  await expect(guide.getByRole('heading', { name: '4. Start at login' })).toBeVisible();
  await guide.getByRole('button', { name: 'Done' }).click();
  await expect(guide).toBeHidden();

  // A recording now works: its lines are transcribed.
  await page.goto(service.url('/recording'));
  await settled(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  const log = page.getByRole('log', { name: 'Live transcript' });
  await expect(log).toContainText(/budget/i, { timeout: 90_000 });
  await page.getByRole('button', { name: 'Stop recording' }).click();
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
});

import fs from 'node:fs';
import path from 'node:path';
import { test, expect, settled, sleep } from '../helpers/fixtures';
import { speakPadded } from '../helpers/audio';
import { REPO, SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Meeting } from '../helpers/service';

// "Improve the transcript": an imported meeting full of names, given its
// words, transcribed again from the meeting page with another installed
// model (tiny.en f16 beside the tiny.en q8_0 in use); the page shows it
// transcribing, then the new transcript spells the names. The language the
// meeting is in shows in its header, and the recording page says (and lets
// the person choose) the language it will use.

const SCRIPT =
  'Siobhan and Tran Nguyen will review the rollout with Piotr Kowalczyk. I will send the budget report to Ngozi by Friday.';
const NAMES = ['Siobhan', 'Nguyen', 'Kowalczyk', 'Ngozi'];

let service: Service;

test.beforeAll(async () => {
  service = await Service.start({ model: true, settings: { general: { allow_remote_start: true } } });
  const models = path.join(service.dataDir, 'models');
  fs.mkdirSync(models, { recursive: true });
  fs.copyFileSync(path.join(REPO, 'target', 'test-models', 'ggml-tiny.en.bin'), path.join(models, 'ggml-tiny.en.bin'));
});

test.afterAll(async () => {
  await service?.stop();
});

test('a meeting transcribed again with another model spells its names', async ({ page }) => {
  test.setTimeout(180_000);
  const wav = path.join(service.folder, 'names.wav');
  speakPadded(SCRIPT, wav, 0.5, 1);
  const imported = await service.call<{ id: string }>('POST', '/ui/import', { body: { path: wav, title: 'Rollout review' } });
  expect(imported.status, imported.text).toBe(202);
  const id = imported.body.id;
  await service.waitForStatus(id, 'ready');
  const patched = await service.call('PATCH', `/ui/meetings/${id}`, { body: { vocabulary: NAMES } });
  expect(patched.status, patched.text).toBe(200);

  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  await expect(page.locator('.meta .language')).toContainText('English');
  const before = (await service.call<string>('GET', `/ui/meetings/${id}/transcript?format=txt`)).text;

  await page.getByRole('button', { name: 'Improve the transcript' }).click();
  const dialog = page.getByRole('dialog', { name: 'Improve the transcript' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Model')).toHaveValue('tiny.en-q8_0');
  await dialog.getByLabel('Model').selectOption('tiny.en-f16');
  await expect(dialog.getByLabel('Language spoken')).toHaveValue('en');
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'transcribe-again-dialog.png') });
  await dialog.getByRole('button', { name: 'Transcribe again' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Improve the transcript' })).toBeDisabled();

  const meeting: Meeting = await service.waitForStatus(id, 'ready');
  expect(meeting.processing_error ?? null).toBeNull();
  let text = '';
  for (let i = 0; i < 50; i++) {
    text = (await service.call<string>('GET', `/ui/meetings/${id}/transcript?format=txt`)).text;
    if (NAMES.filter((n) => text.includes(n)).length >= 2) break;
    await sleep(200);
  }
  // The words given and the other model spell names the first pass did not.
  const right = (t: string) => NAMES.filter((n) => t.includes(n)).length;
  expect(right(text), `${before}\n→\n${text}`).toBeGreaterThanOrEqual(2);
  expect(right(text), `${before}\n→\n${text}`).toBeGreaterThan(right(before));
  // The page shows the new transcript without a reload.
  await expect(page.getByText('Siobhan').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Improve the transcript' })).toBeEnabled();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'transcribe-again-done.png'), fullPage: true });
});

test('the recording page says which language it will transcribe in, and it can be chosen', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/recording'));
  await settled(page);
  const language = page.getByLabel('Language');
  await expect(language).toHaveValue('en');
  await expect(page.getByText(/transcribed in English \(Settings → Recording\); nothing is translated/)).toBeVisible();
  await language.selectOption('de');
  await expect(page.getByText(/transcribed in German; nothing is translated/)).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'recording-language.png') });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, settled } from '../helpers/fixtures';
import { speakPadded } from '../helpers/audio';
import { Service, type MeetingList } from '../helpers/service';

// The person's own import through the file picker (POST /ui/imports), without
// 'Allow remote start': progress, then the meeting in the library, then ready.

let service: Service;
let folder: string;
let wav: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-import-'));
  wav = path.join(folder, 'budget-call.wav');
  speakPadded('Please send the quarterly budget report to the finance team by Friday.', wav, 0.5, 1);
  service = await Service.start({ model: true });
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('"Import audio" takes a WAV: progress, then the meeting appears and becomes ready', async ({ page }) => {
  await service.signIn(page);
  await settled(page);
  await expect(page.getByText(/No meetings yet/)).toBeVisible();

  // Watch for a progress bar from the moment the file is chosen (the upload of a small file is quick).
  await page.evaluate(() => {
    const w = window as unknown as { progressSeen: string[] };
    w.progressSeen = [];
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll<HTMLProgressElement>('progress, [role="progressbar"]')) {
        const label = bar.labels?.[0]?.textContent ?? bar.getAttribute('aria-label') ?? '';
        if (!w.progressSeen.includes(label)) w.progressSeen.push(label);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import audio' }).click();
  await (await chooser).setFiles(wav);

  await expect(page.getByRole('progressbar').first()).toBeVisible();
  const list = page.getByRole('region', { name: 'Meetings' });
  const entry = list.getByRole('link', { name: /budget-call/ });
  await expect(entry).toBeVisible({ timeout: 30_000 });

  // Ready: the library says so and the meeting page shows the words.
  await expect(page.getByText(/budget-call\.wav imported \(ready\)/)).toBeVisible({ timeout: 120_000 });
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  expect(seen.join(' | '), 'progress was shown').toMatch(/Uploading|Transcribing/);
  const meetings = (await service.get<MeetingList>('/ui/meetings')).meetings;
  expect(meetings).toHaveLength(1);
  expect(meetings[0].status).toBe('ready');
  expect(meetings[0].source_app).toBe('import');

  await entry.click();
  await settled(page);
  await expect(page.getByRole('region', { name: 'Transcript' })).toContainText(/budget/i);
  await expect(page.getByRole('region', { name: 'Notes' }).getByRole('heading', { name: 'Summary' }).first()).toBeVisible();
});

test('Settings → Transcription: beam search for imports is chosen, saved and kept', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/transcription'));
  await settled(page);
  const decoding = page.getByLabel('Decoding of imported files');
  await expect(decoding, 'greedy until chosen otherwise').toHaveValue('greedy');
  await decoding.selectOption({ label: 'Most accurate (beam search)' });
  await page.getByRole('button', { name: 'Save transcription settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const settings = await service.get<{ transcription: { decoding?: string } }>('/v1/settings');
  expect(settings.transcription.decoding).toBe('beam');

  await page.reload();
  await settled(page);
  await expect(page.getByLabel('Decoding of imported files')).toHaveValue('beam');
});

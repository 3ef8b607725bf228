import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, settled } from '../helpers/fixtures';
import { conversation } from '../helpers/audio';
import { REPO, SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Meeting } from '../helpers/service';

// Speakers of the other side: an imported call of three generated people is
// told apart after transcription; the person names one by clicking its label
// (an attendee offered), the transcript and the Speakers list follow, and
// Settings → Speakers lists the remembered voice and forgets it.

const SPEAKER_MODEL =
  process.env.RECORDER_SPEAKER_MODEL ?? path.join(REPO, 'target', 'test-models', 'speaker-campplus.safetensors');
const SEGMENTATION_MODEL = path.join(REPO, 'target', 'test-models', 'speaker-segmentation.safetensors');

let service: Service;
let folder: string;
let meetingId: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-speakers-'));
  const wav = path.join(folder, 'planning-call.wav');
  conversation(
    [
      [0, 'Let us look at the budget for the next quarter before Friday.'],
      [1, 'The customer asked for a demo of the new reports.'],
      [3, 'We still have two open bugs in the import flow.'],
      [0, 'Marketing wants the launch moved to the second week of March.'],
      [3, 'The servers were slow again last night around midnight.'],
      [1, 'Our hiring plan needs one more engineer for the mobile team.'],
    ],
    wav,
  );
  service = await Service.start({
    model: true,
    env: { RECORDER_SPEAKER_MODEL_PATH: SPEAKER_MODEL, RECORDER_SEGMENTATION_MODEL_PATH: SEGMENTATION_MODEL },
  });
  const imported = await service.call<Meeting>('POST', '/ui/import', { body: { path: wav } });
  expect(imported.status, imported.text).toBe(202);
  meetingId = imported.body.id;
  const attendees = [{ name: 'Dana' }, { name: 'Eli' }, { name: 'Fay' }];
  const patched = await service.call('PATCH', `/ui/meetings/${meetingId}`, { body: { attendees } });
  expect(patched.status, patched.text).toBe(200);
  await service.waitForStatus(meetingId, 'ready');
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('a speaker is named by clicking its label, and the transcript follows', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${meetingId}`));
  await settled(page);
  const speakers = page.getByRole('region', { name: 'Speakers' });
  for (const label of ['Speaker 1', 'Speaker 2', 'Speaker 3']) {
    await expect(speakers.getByRole('button', { name: `Rename ${label}` })).toBeVisible();
  }
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await transcript.getByRole('button', { name: 'Rename Speaker 1' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Name Speaker 1' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Attendees' }).getByRole('button')).toHaveText(['Dana', 'Eli', 'Fay']);
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'speakers-rename-dialog.png') });
  await dialog.getByRole('button', { name: 'Dana' }).click();
  await expect(dialog).toBeHidden();

  await expect(speakers.getByRole('button', { name: 'Rename Dana' })).toBeVisible();
  await expect(transcript.getByRole('button', { name: 'Rename Dana' }).first()).toBeVisible();
  await expect(transcript.getByRole('button', { name: 'Rename Speaker 1' })).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'speakers-named-meeting.png'), fullPage: true });
  // Narrow and dark: the labels stay buttons beside their lines.
  await page.setViewportSize({ width: 400, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(transcript.getByRole('button', { name: 'Rename Dana' }).first()).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'speakers-named-meeting-400-dark.png'), fullPage: true });
  await speakers.getByRole('button', { name: 'Rename Speaker 2' }).click();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'speakers-rename-dialog-400-dark.png') });
  await page.getByRole('dialog', { name: 'Name Speaker 2' }).getByRole('button', { name: 'Cancel' }).click();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Typed names work too, and the name can be taken away again.
  await speakers.getByRole('button', { name: 'Rename Speaker 3' }).click();
  const third = page.getByRole('dialog', { name: 'Name Speaker 3' });
  await third.getByLabel('Who is Speaker 3?').fill('Fay Wong');
  await third.getByRole('button', { name: 'Save' }).click();
  await expect(speakers.getByRole('button', { name: 'Rename Fay Wong' })).toBeVisible();
  await speakers.getByRole('button', { name: 'Rename Fay Wong' }).click();
  await page.getByRole('dialog', { name: 'Name Fay Wong' }).getByRole('button', { name: 'Remove name' }).click();
  await expect(speakers.getByRole('button', { name: 'Rename Speaker 3' })).toBeVisible();
  // Every rename is in the history, and the last is undone from there.
  const history = page.getByRole('region', { name: 'History' });
  await history.getByRole('button', { name: 'History' }).click();
  await expect(history.getByRole('listitem').first()).toContainText('Took the name “Fay Wong” from Speaker 3');
  await expect(history).toContainText('Named Speaker 1 “Dana”');
  await history.getByRole('button', { name: 'Undo: Took the name “Fay Wong” from Speaker 3' }).click();
  await expect(speakers.getByRole('button', { name: 'Rename Fay Wong' })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'speakers-history.png'), fullPage: true });
  const transcriptText = await service.call<string>('GET', `/ui/meetings/${meetingId}/transcript?format=txt`);
  expect(transcriptText.text).toContain('Dana:');
});

test('Settings → Speakers lists the remembered voice and forgets it', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/speakers'));
  await settled(page);
  await expect(page.getByRole('heading', { name: 'Speakers', level: 2 })).toBeVisible();
  await expect(page.getByLabel('Remember voices I name')).toBeChecked();
  const voices = page.getByRole('region', { name: 'Remembered voices' });
  const dana = voices.getByRole('listitem').filter({ hasText: 'Dana' });
  await expect(dana).toContainText('named in 1 meeting');
  await expect(voices.getByRole('listitem').filter({ hasText: 'Fay Wong' }), 'a name taken away stays remembered').toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your voice' })).toBeVisible();
  await expect(page.getByText(/Not learned yet\. It is learned from meetings where only you speak/)).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-speakers.png'), fullPage: true });
  await voices.getByRole('button', { name: 'Forget Dana’s voice' }).click();
  await expect(dana).toHaveCount(0);
  await voices.getByRole('button', { name: 'Forget Fay Wong’s voice' }).click();
  await expect(voices.getByText('No voice is remembered.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Forgot Fay Wong’s voice' })).toBeVisible();
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, settled } from '../helpers/fixtures';
import { realRoom, speakPadded } from '../helpers/audio';
import { REPO, SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Meeting } from '../helpers/service';

// The people in the room (issue 49): a recording whose microphone hears the
// person and a colleague (real voices) shows the colleague as "In the room 1"
// in the transcript and the Speakers list, beside the person's own lines,
// and already in the live transcript while the meeting is recorded.

const MODELS = process.env.RECORDER_TEST_MODELS ?? path.join(REPO, 'target', 'test-models');

let service: Service;
let folder: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-room-'));
  const mic = path.join(folder, 'mic.wav');
  const sys = path.join(folder, 'sys.wav');
  realRoom(MODELS, mic, 4);
  speakPadded('Sounds good, talk to you all next week.', sys, 2, 20);
  service = await Service.start({
    model: true,
    audio: { mic, sys, speed: 2 },
    settings: { general: { user_name: 'Ada' } },
    env: {
      RECORDER_SPEAKER_MODEL_PATH: path.join(MODELS, 'speaker-campplus.safetensors'),
      RECORDER_SEGMENTATION_MODEL_PATH: path.join(MODELS, 'speaker-segmentation.safetensors'),
    },
  });
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

type Line = { channel: string; end_ms: number; speaker: string };

test('a colleague beside the person is "In the room 1", and can be named', async ({ page }) => {
  const started = await service.call<Meeting>('POST', '/ui/recording/start', { body: {} });
  expect(started.status, started.text).toBe(201);
  const id = started.body.id;
  await service.signIn(page);
  await page.goto(service.url('/recording'));
  // Until the microphone's last turn is transcribed (the file plays at twice real time).
  await expect
    .poll(
      async () => {
        const answer = await service.call<{ segments: Line[] }>('GET', `/ui/meetings/${id}/transcript`);
        return Math.max(0, ...(answer.body.segments ?? []).filter((s) => s.channel === 'mic').map((s) => s.end_ms));
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBeGreaterThan(30_000);
  // The live transcript already shows the colleague, within a few seconds.
  const live = page.getByRole('log', { name: 'Live transcript' });
  await expect(live.getByText('In the room 1', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
  await expect(live.getByText('Ada', { exact: true }).first()).toBeVisible();
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'room-live.png'), fullPage: true });
  const stopped = await service.call('POST', '/ui/recording/stop', { body: {} });
  expect(stopped.status, stopped.text).toBe(200);
  await service.waitForStatus(id, 'ready');

  await page.goto(service.url(`/meetings/${id}`));
  const speakers = page.getByRole('region', { name: 'Speakers' });
  await expect(speakers.getByRole('button', { name: 'Rename In the room 1' })).toBeVisible();
  await expect(speakers.getByText('The other side and the people in the room with you')).toBeVisible();
  await expect(page.getByText('In the room 1', { exact: true }).first()).toBeVisible();
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'room-meeting.png'), fullPage: true });

  await speakers.getByRole('button', { name: 'Rename In the room 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Name In the room 1' });
  await dialog.getByLabel('Who is In the room 1?').fill('Gus');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(speakers.getByRole('button', { name: 'Rename Gus' })).toContainText('in the room');
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'room-meeting-named.png'), fullPage: true });
});

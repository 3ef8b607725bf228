import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, settled, sleep } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { Service, type Meeting } from '../helpers/service';

// A live recording from the person's own buttons, with the two capture devices
// replaced by speech files (--mic-file/--sys-file) and the tiny.en test model.

let service: Service;
let folder: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-audio-'));
  const { mic, sys } = callFiles(folder);
  service = await Service.start({
    model: true,
    audio: { mic, sys, speed: 2 },
    settings: { general: { user_name: 'Ada' } },
  });
});

test.afterAll(async () => {
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('start, live lines and levels, a marker, stop, and the meeting becomes ready', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/recording'));
  await settled(page);
  await page.getByRole('button', { name: 'Start recording' }).click();

  const stop = page.getByRole('button', { name: 'Stop recording' });
  await expect(stop).toBeVisible();
  const health = await service.get<{ recording: { active: boolean; meeting_id?: string } }>('/ui/health');
  expect(health.recording.active).toBe(true);
  const id = health.recording.meeting_id!;

  // Level meters follow recording.levels while the lines arrive (segment.new).
  const mic = page.getByRole('meter', { name: 'You' });
  const sys = page.getByRole('meter', { name: 'Others' });
  const log = page.getByRole('log', { name: 'Live transcript' });
  const micSeen = new Set<number>();
  const sysSeen = new Set<number>();
  const value = (el: Element) => (el as HTMLMeterElement).value;
  // Lines being spoken show first as partial lines (segment.partial), in italics.
  const partial = log.locator('.line.partial');
  const finalLines = log.locator('.line:not(.partial)');
  let partialSeen = '';
  const deadline = Date.now() + 90_000;
  let marked = false;
  while (Date.now() < deadline) {
    micSeen.add(await mic.evaluate(value));
    sysSeen.add(await sys.evaluate(value));
    if (!partialSeen && (await partial.count()) > 0) partialSeen = await partial.first().innerText().catch(() => '');
    if (!marked && micSeen.size > 1) {
      await page.getByRole('button', { name: 'Add marker' }).click();
      marked = true;
    }
    const text = (await finalLines.allInnerTexts()).join(' ').toLowerCase();
    if (text.includes('budget') && text.includes('march') && marked) break;
    await sleep(100);
  }
  if (!marked) await page.getByRole('button', { name: 'Add marker' }).click();
  // The language of the lines to come: tiny.en cannot take French, and says so.
  const language = page.getByLabel('Language');
  await language.selectOption('fr');
  await expect(page.getByRole('status').getByText(/English-only/)).toBeVisible();
  await expect(language).not.toHaveValue('fr');
  await language.selectOption('en');
  await expect(page.getByRole('status').getByText('The lines from now on are transcribed in English.')).toBeVisible();
  await expect(finalLines.filter({ hasText: /budget/i })).not.toHaveCount(0);
  await expect(finalLines.filter({ hasText: /march/i })).not.toHaveCount(0);
  await expect(finalLines.filter({ hasText: 'Ada' })).not.toHaveCount(0);
  expect(partialSeen, 'a partial line was shown while someone spoke').toMatch(/\S…/);
  expect(Math.max(...micSeen), `mic meter values seen: ${[...micSeen]}`).toBeGreaterThan(0);
  expect(micSeen.size, 'the mic meter moved').toBeGreaterThan(1);
  expect(Math.max(...sysSeen), `sys meter values seen: ${[...sysSeen]}`).toBeGreaterThan(0);

  // The person's own notes while the meeting goes on, saved as typed, and a
  // line corrected live that the lines arriving after it leave alone.
  const notepad = page.getByRole('textbox', { name: 'My notes' });
  await notepad.fill('- budget first\n- March launch');
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toHaveCount(1);
  const fixable = finalLines.locator('.fixable').first();
  const said = (await fixable.innerText()).trim();
  await fixable.click();
  const fix = page.getByRole('textbox', { name: /^Correct the line at/ });
  await fix.fill(`${said} Corrected while live`);
  await fix.press('Enter');
  await expect(finalLines.filter({ hasText: 'Corrected while live' })).toHaveCount(1);
  await sleep(1500);
  await expect(finalLines.filter({ hasText: 'Corrected while live' })).toHaveCount(1);

  await stop.click();
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
  await page.getByRole('link', { name: 'Open the meeting' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/meetings/${id}`));
  await settled(page);

  // Ready: the processing badge is gone, the summary note is shown, the transcript has both sides.
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await expect(page.getByRole('region', { name: 'Notes' }).getByRole('heading', { name: 'Summary' }).first()).toBeVisible({
    timeout: 120_000,
  });
  await expect(page.getByRole('main').getByText(/^(Recording|Transcribing|Writing notes)( \d+ %)?$/)).toHaveCount(0, {
    timeout: 30_000,
  });
  await expect(transcript).toContainText(/budget/i);
  await expect(transcript).toContainText(/march/i);
  await expect(page.getByRole('region', { name: 'Markers' }).getByRole('button', { name: /Marker/ })).toHaveCount(1);
  const meeting = await service.get<Meeting>(`/ui/meetings/${id}`);
  expect(meeting.status).toBe('ready');
  expect(meeting.processing_error).toBeNull();
  // Audio of the recording plays in the app.
  await expect(page.getByRole('button', { name: /^Play from/ }).first()).toBeVisible();
  // What was typed and corrected during the recording is on the meeting page.
  await expect(page.getByRole('textbox', { name: 'My notes' })).toHaveValue('- budget first\n- March launch');
  await expect(transcript).toContainText('Corrected while live');
  const mine = meeting.notes!.find((n) => n.kind === 'mine')!;
  expect(mine.line_moments!.every((at) => typeof at === 'number' && at > 0), JSON.stringify(mine)).toBe(true);
});

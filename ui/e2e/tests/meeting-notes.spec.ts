import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, settled } from '../helpers/fixtures';
import { speakPadded } from '../helpers/audio';
import { NOTES_TEST_MODEL, SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Meeting } from '../helpers/service';

// A meeting's notes card: which engine wrote the notes, the notice when the
// chosen one could not, and the action items shown once (the checklist, not
// also the action-items note), their absence too. With "On this computer" chosen and no model
// installed, the built-in engine writes; once the test model is added, the
// model inside writes (when recorder-llm is there), with its progress on the page.

const BUILTIN = 'Written by the built-in engine (no language model: topics, decisions and tasks taken from the transcript)';
const EMBEDDED = 'Written on this computer by the notes model';

let service: Service;
let folder: string;
let wav: string;
let quiet: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-meeting-notes-'));
  wav = path.join(folder, 'budget-call.wav');
  speakPadded('Please send the quarterly budget report to the finance team by Friday. We agreed to move the launch to March.', wav, 0.5, 1);
  quiet = path.join(folder, 'weather-chat.wav');
  speakPadded('The weather in Lisbon was sunny all week, and the old museum by the river was quiet.', quiet, 0.5, 1);
  service = await Service.start({ model: true, settings: { ai: { provider: 'embedded' } } });
});

test.afterAll(async () => {
  await service?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

async function importCall(file = wav): Promise<string> {
  const imported = await service.call<Meeting>('POST', '/ui/import', { body: { path: file } });
  expect(imported.status, imported.text).toBe(202);
  return imported.body.id;
}

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-light.png`), fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('no notes model installed: the built-in engine wrote the notes, the page says so, and the action items appear once', async ({ page }) => {
  const id = await importCall();
  const meeting = await service.waitForStatus(id, 'ready');
  const notes = meeting.notes ?? [];
  expect(notes.map((n) => n.kind)).toContain('action_items');
  for (const note of notes) {
    expect(note.written_by).toBe('builtin');
    expect(note.fallback).toMatch(/no notes model is installed/);
  }
  expect(meeting.action_items!.length, 'structured action items').toBeGreaterThan(0);

  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const card = page.getByRole('region', { name: 'Notes' });
  await expect(card.getByRole('heading', { name: 'Summary' })).toBeVisible();
  // Every note was written the same way: one line under the heading, not one per card.
  await expect(card.getByText(BUILTIN, { exact: true })).toHaveCount(1);
  const notice = card.getByText(/^The built-in engine wrote these notes instead of the chosen one\. No notes model is installed: add one in Settings, AI, or with `recorder models add-notes FILE`\.$/);
  await expect(notice).toHaveCount(1);
  await expect(notice).toBeVisible();

  // The action items: the checklist only, not also the action-items note.
  await expect(card.getByRole('heading', { name: 'Action items' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Action items', exact: true })).toHaveCount(1);
  const items = page.getByRole('region', { name: 'Action items' });
  for (const item of meeting.action_items!) {
    await expect(items.getByRole('checkbox', { name: item.text, exact: true })).toHaveCount(1);
  }
  await shot(page, 'meeting-notes-fallback');
});

test('a meeting without action items says so once: the checklist, not also the notes', async ({ page }) => {
  const id = await importCall(quiet);
  const meeting = await service.waitForStatus(id, 'ready');
  expect(meeting.action_items, 'no action items in a chat about the weather').toEqual([]);
  // The notes' Markdown keeps its line (exports, the API); the page shows the checklist's.
  const note = (meeting.notes ?? []).find((n) => n.kind === 'action_items');
  expect(note?.content_md).toBe('_No action items were found._');

  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const card = page.getByRole('region', { name: 'Notes' });
  await expect(card.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Action items' })).toHaveCount(0);
  await expect(page.getByText('No action items were found.')).toHaveCount(0);
  const items = page.getByRole('region', { name: 'Action items' });
  await expect(items.getByText('No action items.', { exact: true })).toBeVisible();
  await expect(page.getByText(/No action items/)).toHaveCount(1);
});

test('with the test model added, the model inside writes: progress on the page, then "Written on this computer"', async ({ page }) => {
  test.setTimeout(540_000);
  const added = await service.call('POST', '/ui/notes-models/add', { body: { path: NOTES_TEST_MODEL } });
  expect(added.status, added.text).toBe(201);
  const models = await service.get<{ worker_found: boolean }>('/ui/notes-models');
  test.skip(!models.worker_found, 'recorder-llm is not built (cargo build -p recorder-llm-worker)');

  await service.signIn(page);
  const id = await importCall();
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  // Every notes line the page shows while the notes are written.
  await page.evaluate(() => {
    const w = window as unknown as { notesSeen: string[] };
    w.notesSeen = [];
    const look = () => {
      for (const p of document.querySelectorAll('.action-status p, #notes p')) {
        const text = (p.textContent ?? '').trim().replace(/\s+/g, ' ');
        if (/notes|Waiting/i.test(text) && !w.notesSeen.includes(text)) w.notesSeen.push(text);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // The status line under the meeting's buttons while the model writes (seconds, even for the test model).
  const status = page.getByRole('status');
  await expect(status.getByText(/^Writing notes on this computer…/)).toBeVisible({ timeout: 240_000 });
  // With how far it is, as the model reports it (a short run may end before it does).
  const far = await status
    .getByText(/^Writing notes on this computer… \d+%$/)
    .waitFor({ timeout: 60_000 })
    .then(() => true, () => false);
  if (far) await expect(status.getByRole('progressbar', { name: 'Writing notes' })).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'meeting-notes-writing-1280-light.png'), animations: 'disabled' });
  const meeting = await service.waitForStatus(id, 'ready', 480_000);
  const seen = await page.evaluate(() => (window as unknown as { notesSeen: string[] }).notesSeen);
  console.log(`notes lines seen: ${seen.join(' | ')}`);
  expect(seen.join(' | '), 'the page showed the model inside writing').toMatch(/Writing notes on this computer…/);
  const byModel = (meeting.notes ?? []).filter((n) => n.written_by === 'embedded');
  expect(byModel.length, JSON.stringify(meeting.notes)).toBeGreaterThan(0);

  const card = page.getByRole('region', { name: 'Notes' });
  await expect(card.getByText(EMBEDDED, { exact: true }).first()).toBeVisible({ timeout: 15_000 });
  // A note the test model wrote nothing usable for (it is 135 M parameters) is the
  // built-in engine's, and says so: one notice per such note, none for the others.
  // (Notes written alike share one line under the heading.)
  const shown = (meeting.notes ?? []).filter((n) => n.kind !== 'action_items');
  const origins = new Set(shown.map((n) => JSON.stringify([n.written_by, n.fallback])));
  const refused = shown.filter((n) => n.fallback).length;
  const notices = origins.size === 1 ? Math.min(refused, 1) : refused;
  await expect(card.getByText(/^The built-in engine wrote these notes instead/)).toHaveCount(notices);
  await expect(card.getByRole('heading', { name: 'Action items' })).toHaveCount(0);
  await shot(page, 'meeting-notes-embedded');
});

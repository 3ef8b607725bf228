import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, settled, sleep } from '../helpers/fixtures';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Meeting } from '../helpers/service';

// The record is the person's: a line fixed with the keyboard, a line given to
// another speaker, the summary rewritten, action items added, edited and
// removed, my notes typed (and kept through a kill -9), the history panel's
// Undo, and the word learned in Settings → Words to know.

let service: Service;
let id: string;

const LINES = [
  'How did the review go?',
  'At Scott News, Shivon approved the budget.',
  'Can you send me the proposal?',
  'Sure, by Friday.',
];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  service = await Service.start({
    meetings: [
      {
        title: 'Planning call',
        startedAt: Date.UTC(2026, 10, 30, 9),
        lines: LINES,
        notes: { summary: '## Summary\n\nAt Scott News: the budget.' },
        actionItems: ['Send the proposal'],
      },
    ],
  });
  id = service.seeded[0];
});

test.afterAll(async () => {
  await service?.stop();
});

async function shots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await sleep(150);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-${scheme}.png`), fullPage: true, animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function transcript(): Promise<{ id: string; text: string; speaker: string; edited: boolean }[]> {
  return (await service.get<{ segments: { id: string; text: string; speaker: string; edited: boolean }[] }>(`/ui/meetings/${id}/transcript`)).segments;
}

test('a line is fixed with the keyboard, given to another speaker, and the word is learned', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const lines = page.getByRole('region', { name: 'Transcript' });

  const line = lines.getByRole('button', { name: LINES[1] });
  await line.focus();
  await page.keyboard.press('Enter');
  const box = lines.getByRole('textbox', { name: 'Correct the line at 00:05' });
  await expect(box).toBeFocused();
  await box.fill('That is good news, Siobhan approved the budget.');
  // Escape leaves the line as it was.
  await box.press('Escape');
  await expect(lines.getByRole('button', { name: LINES[1] })).toBeVisible();
  await lines.getByRole('button', { name: LINES[1] }).click();
  await lines.getByRole('textbox', { name: 'Correct the line at 00:05' }).fill('That is good news, Siobhan approved the budget.');
  await page.keyboard.press('Enter');
  const fixed = lines.getByRole('button', { name: /^That is good news, Siobhan approved the budget\./ });
  await expect(fixed).toBeVisible();
  await expect(fixed).toContainText('edited');
  await expect(fixed).toBeFocused();
  expect((await transcript())[1]).toMatchObject({ text: 'That is good news, Siobhan approved the budget.', edited: true });

  // The line said by "Them" was Priya: this line only.
  await lines.getByRole('button', { name: 'Change the speaker of the line at 00:15' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change speaker' });
  await dialog.getByLabel('Someone else').fill('Priya');
  await dialog.getByLabel('This line').check();
  await shots(page, 'corrections-change-speaker');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const after = await transcript();
  expect(after.map((l) => l.speaker)).toEqual(['Me', 'Them', 'Me', 'Priya']);

  await page.goto(service.url('/settings/transcription'));
  await settled(page);
  const learned = page.getByRole('list', { name: 'Learned from your corrections' });
  await expect(learned.getByRole('listitem')).toHaveText([/Siobhan/]);
  // A learned word is forgotten with its ×, and the service no longer has it.
  await learned.getByRole('button', { name: 'Forget Siobhan' }).click();
  await expect(page.getByText('Forgot “Siobhan”')).toBeVisible();
  await expect(learned.getByRole('listitem')).toHaveText([/None yet/]);
  await shots(page, 'corrections-learned-forgotten');
  const settings = await service.get<{ transcription: { learned: string[] } }>('/ui/settings');
  expect(settings.transcription.learned).toEqual([]);
});

test('the summary is rewritten and action items are added, edited and removed, then undone from the history', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const notes = page.getByRole('region', { name: 'Notes' });
  await notes.getByRole('button', { name: 'Edit the summary' }).click();
  const editor = notes.getByRole('textbox', { name: 'Summary (Markdown)' });
  await editor.fill('## Summary\n\nGood news: the budget is approved. Siobhan owns the proposal.');
  await editor.press('Control+Enter');
  await expect(notes).toContainText('Good news: the budget is approved.');
  await expect(notes).toContainText('Written by you');

  const items = page.getByRole('region', { name: 'Action items' });
  await items.getByRole('textbox', { name: 'New action item' }).fill('Book the room');
  await items.getByRole('textbox', { name: 'Owner of the new item' }).fill('Dana');
  await items.getByRole('textbox', { name: 'New action item' }).press('Enter');
  await expect(items.getByRole('checkbox', { name: 'Book the room', exact: true })).toBeVisible();

  await items.getByRole('button', { name: 'Edit “Send the proposal”' }).click();
  const group = items.getByRole('group', { name: 'Edit “Send the proposal”' });
  await group.getByRole('textbox', { name: 'Owner' }).fill('Priya');
  await group.getByLabel('Due').fill('2026-12-24');
  await group.getByRole('textbox', { name: 'What needs doing' }).press('Enter');
  await expect(items).toContainText('— Priya');
  await expect(items).toContainText('due 2026-12-24');
  await shots(page, 'corrections-meeting');

  await items.getByRole('button', { name: 'Edit “Book the room”' }).click();
  await items.getByRole('button', { name: 'Remove “Book the room”' }).click();
  await expect(items.getByRole('checkbox', { name: 'Book the room', exact: true })).toHaveCount(0);

  const history = page.getByRole('region', { name: 'History' });
  await history.getByRole('button', { name: 'History' }).click();
  await expect(history.getByRole('listitem').first()).toContainText('Removed the action item “Book the room”');
  await expect(history).toContainText('Rewrote the summary');
  await shots(page, 'corrections-history');
  await history.getByRole('button', { name: 'Undo: Removed the action item “Book the room”' }).click();
  await expect(items.getByRole('checkbox', { name: 'Book the room', exact: true })).toBeVisible();
  const meeting = await service.get<Meeting>(`/ui/meetings/${id}`);
  expect(meeting.action_items!.map((i) => [i.text, i.owner, i.due])).toEqual([
    ['Send the proposal', 'Priya', '2026-12-24'],
    ['Book the room', 'Dana', null],
  ]);
  expect(meeting.notes!.find((n) => n.kind === 'summary')!.written_by).toBe('person');
});

test('my notes are saved as they are typed: a kill -9 a second later loses nothing', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const notepad = page.getByRole('textbox', { name: 'My notes' });
  await notepad.click();
  await page.keyboard.type('- ask Priya about the proposal', { delay: 20 });
  await sleep(1100);
  await service.kill();
  await service.restart();
  const meeting = await service.get<Meeting>(`/ui/meetings/${id}`);
  expect(meeting.notes!.find((n) => n.kind === 'mine')?.content_md).toBe('- ask Priya about the proposal');
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  await expect(page.getByRole('textbox', { name: 'My notes' })).toHaveValue('- ask Priya about the proposal');
});

test('my notes open in two windows: each takes what the other saved, neither saves over it', async ({ page, context }) => {
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const other = await context.newPage();
  await other.goto(service.url(`/meetings/${id}`));
  await settled(other);
  const here = page.getByRole('textbox', { name: 'My notes' });
  const there = other.getByRole('textbox', { name: 'My notes' });
  const first = '- ask Priya about the proposal';
  await expect(there).toHaveValue(first);

  await here.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n- book the room', { delay: 20 });
  await expect(there).toHaveValue(`${first}\n- book the room`);
  await expect(other.getByRole('status').filter({ hasText: 'Updated from another window' })).toBeVisible();

  await there.click();
  await other.keyboard.press('Control+End');
  await other.keyboard.type('\n- thank Dana', { delay: 20 });
  const all = `${first}\n- book the room\n- thank Dana`;
  await expect(here).toHaveValue(all);
  await expect
    .poll(async () => (await service.get<Meeting>(`/ui/meetings/${id}`)).notes!.find((n) => n.kind === 'mine')?.content_md)
    .toBe(all);
  await other.close();
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Response } from '@playwright/test';
import { test, expect, settled } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { lineStart, type SeedMeeting } from '../helpers/meetings';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type Segment } from '../helpers/service';

// Search by meaning and asking, in the app: meetings with chosen lines and the
// embedding model installed before the service starts (it embeds them in the
// background; the tests wait for health's `meaning.remaining` to reach 0).
// The library's "By meaning" finds a paraphrase the words alone do not; "Ask
// your meetings" answers with the lines it comes from, each opening its meeting
// at that line; a date range and the meeting page's "Ask about this meeting"
// keep to their meetings; the recording page asks about what was said so far.

const DAY = 86_400_000;
/** 2 March 2026, 10:00 UTC (the browser's time zone is UTC). */
const START = Date.UTC(2026, 2, 2, 10);

const MEETINGS: SeedMeeting[] = [
  {
    title: 'Thursday sync',
    startedAt: START,
    lines: [
      'Good morning everyone, thanks for joining.',
      'We are relocating to the new building downtown in May.',
      'Facilities will pack up the desks the week before.',
    ],
  },
  {
    title: 'Revenue review',
    startedAt: START + DAY,
    lines: [
      'Let us look at the numbers first.',
      'We should raise what we charge for the premium plan next quarter.',
      'Customers accepted the last increase without complaint.',
    ],
  },
  {
    title: 'Team planning',
    startedAt: START + 2 * DAY,
    lines: [
      'Sam will be away on vacation in August.',
      'Priya is covering for him while he is out.',
      'Let us write the handover document this week.',
    ],
  },
  {
    title: 'Incident review',
    startedAt: START + 3 * DAY,
    lines: [
      'The database went down on Saturday night.',
      'Customers could not log in for two hours.',
      'We will add a replica so it does not happen again.',
    ],
  },
];
const [SYNC, , PLANNING] = [0, 1, 2, 3];
const PRIYA = 'Priya is covering for him while he is out.';
const RELOCATING = 'We are relocating to the new building downtown in May.';
const NOTHING = 'Nothing in your meetings answers that.';
const CLOSEST = 'Nothing in your meetings clearly answers that. These are the closest lines; judge for yourself.';

/** Where a citation's answering line starts (it holds the lines around it too). */
function at(c: Citation): number {
  return c.at_ms ?? c.start_ms;
}

interface Citation {
  meeting_id: string;
  title: string;
  start_ms: number;
  end_ms: number;
  speaker: string;
  text: string;
  at_ms?: number;
}
interface AskAnswer {
  answer: string;
  citations: Citation[];
  provider: string;
  fallback?: string | null;
  closest?: boolean;
}
interface Health {
  meaning: { available: boolean; remaining: number; meetings: number };
}

let service: Service;
let folder: string;

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-ask-'));
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const { mic, sys } = callFiles(folder);
  service = await Service.start({ meetings: MEETINGS, embeddings: true, model: true, audio: { mic, sys, speed: 2 } });
  // Every ready meeting embedded (in the background, after the start).
  await expect
    .poll(async () => (await service.get<Health>('/ui/health')).meaning, { timeout: 120_000, intervals: [200] })
    .toEqual({ available: true, remaining: 0, meetings: MEETINGS.length });
});

test.afterAll(async () => {
  await service?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

function asked(page: Page): Promise<Response> {
  return page.waitForResponse((r) => new URL(r.url()).pathname === '/ui/ask' && r.request().method() === 'POST');
}

/** The page at 1280 and 400 wide, light and dark, as target/ui-screenshots/<name>-<width>-<scheme>.png. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-${scheme}.png`), fullPage: true, animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** axe-core, light and dark: no violation of impact serious or critical. */
async function axe(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    const severe = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `[${v.impact}] ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`);
    expect.soft(severe, `serious/critical axe violations on ${name} (${scheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The transcript line `text` is in view, its play button focused, and it stands out from the others. */
async function openedAtLine(page: Page, text: string): Promise<void> {
  const region = page.getByRole('region', { name: 'Transcript' });
  const row = region.getByRole('listitem').filter({ hasText: text });
  await expect(row).toBeInViewport();
  await expect(row.getByRole('button', { name: /^Play from/ })).toBeFocused();
  const background = (el: Element) => getComputedStyle(el).backgroundColor;
  const highlighted = await row.evaluate(background);
  const other = await region.getByRole('listitem').filter({ hasNotText: text }).first().evaluate(background);
  expect(highlighted, 'the cited line is highlighted').not.toBe(other);
}

test('asking the library answers with its lines, and a line opens its meeting there', async ({ page }) => {
  await service.signIn(page);
  await settled(page);
  const box = page.getByRole('region', { name: 'Ask your meetings' });
  const field = box.getByRole('textbox', { name: 'Ask your meetings' });
  await expect(field).toBeVisible();

  // Hold the answer back a little: the box says it is busy meanwhile.
  await page.route('**/ui/ask', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await field.fill('Who is covering for Sam in August?');
  const reply = asked(page);
  await field.press('Enter');
  await expect(box.getByText(/Finding the answer/)).toBeVisible();
  await expect(box.getByRole('button', { name: 'Ask' })).toBeDisabled();
  const response = await reply;
  expect(response.status()).toBe(200);
  expect(response.request().postDataJSON(), 'all meetings: no dates, no meeting').toEqual({
    question: 'Who is covering for Sam in August?',
  });
  const answer = (await response.json()) as AskAnswer;
  await page.unroute('**/ui/ask');

  expect(answer.provider).toBe('builtin');
  expect(answer.answer).toContain(PRIYA);
  const priya = answer.citations.find((c) => c.text.includes(PRIYA));
  expect(priya, 'the line that answers is cited, with the lines around it').toBeTruthy();
  expect(priya!.meeting_id).toBe(service.seeded[PLANNING]);
  expect(priya!.text).toContain('Sam will be away on vacation in August.');
  expect(at(priya!), 'the link opens at the answering line').toBe(lineStart(1));

  await expect(box.getByText(/Finding the answer/)).toHaveCount(0);
  await expect(box.getByRole('button', { name: 'Ask' })).toBeEnabled();
  await expect(box.getByText(answer.answer.split('\n')[0], { exact: false }).first()).toBeVisible();
  await expect(box.getByText('Answered by the built-in engine')).toBeVisible();
  // Every citation is a link showing its meeting, time, speaker and the line.
  const links = box.getByRole('listitem').getByRole('link');
  await expect(links).toHaveCount(answer.citations.length);
  for (const [i, c] of answer.citations.entries()) {
    const link = links.nth(i);
    await expect(link).toContainText(c.title);
    await expect(link).toContainText(clock(at(c)));
    if (c.speaker) await expect(link).toContainText(c.speaker);
    await expect(link).toContainText(c.text);
    await expect(link).toHaveAttribute('href', `/meetings/${c.meeting_id}?t=${at(c)}`);
  }
  await axe(page, 'library with an answer');
  await shots(page, 'ask-library');

  // The cited line opens its meeting there, as a search hit does.
  await box.getByRole('link').filter({ hasText: PRIYA }).click();
  await expect(page).toHaveURL(new RegExp(`/meetings/${priya!.meeting_id}\\?t=${at(priya!)}$`));
  await settled(page);
  await expect(page.getByRole('textbox', { name: 'Meeting title' })).toHaveValue('Team planning');
  await openedAtLine(page, PRIYA);
});

test('a date range keeps to its days; nothing found is a plain notice; refusals show as errors', async ({ page }) => {
  await service.signIn(page);
  await settled(page);
  const box = page.getByRole('region', { name: 'Ask your meetings' });
  const field = box.getByRole('textbox', { name: 'Ask your meetings' });
  const ask = box.getByRole('button', { name: 'Ask' });

  // No question: said at once, nothing sent.
  let sent = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/ui/ask') sent += 1;
  });
  await ask.click();
  await expect(box.getByRole('alert')).toHaveText('Type a question first.');
  expect(sent).toBe(0);

  // Only the day of "Team planning": its lines only.
  const day = new Date(MEETINGS[PLANNING].startedAt).toISOString().slice(0, 10);
  await box.getByLabel('From').fill(day);
  await box.getByLabel('To').fill(day);
  await field.fill('Who is covering for Sam in August?');
  let reply = asked(page);
  await ask.click();
  let response = await reply;
  const midnight = Date.parse(`${day}T00:00:00Z`);
  expect(response.request().postDataJSON()).toEqual({
    question: 'Who is covering for Sam in August?',
    from: midnight,
    to: midnight + DAY,
  });
  const inRange = (await response.json()) as AskAnswer;
  expect(inRange.citations.length).toBeGreaterThan(0);
  expect(new Set(inRange.citations.map((c) => c.title))).toEqual(new Set(['Team planning']));
  await expect(box.getByRole('link').filter({ hasText: PRIYA })).toBeVisible();
  await expect(box.getByRole('alert')).toHaveCount(0);

  // The day before the first meeting: nothing there, a plain notice, no answer or lines.
  const before = new Date(START - DAY).toISOString().slice(0, 10);
  await box.getByLabel('From').fill(before);
  await box.getByLabel('To').fill(before);
  reply = asked(page);
  await field.press('Enter');
  response = await reply;
  const nothing = (await response.json()) as AskAnswer;
  expect(nothing).toMatchObject({ answer: NOTHING, citations: [] });
  await expect(box.getByText(NOTHING)).toBeVisible();
  await expect(box.getByRole('link')).toHaveCount(0);
  await expect(box.getByText(/^Answered by/)).toHaveCount(0);
  await shots(page, 'ask-library-nothing');

  // Over 2 000 characters: the service's 400, in the app's error style.
  await box.getByLabel('From').fill('');
  await box.getByLabel('To').fill('');
  await field.fill('why '.repeat(501));
  reply = asked(page);
  await ask.click();
  expect((await reply).status()).toBe(400);
  const error = box.getByRole('alert');
  await expect(error).toContainText('2000');
  await expect(error).toHaveClass(/banner danger/);
  await expect(box.getByText(NOTHING)).toHaveCount(0);
  await shots(page, 'ask-library-error');
});

test('"By meaning" finds a paraphrase the words alone do not', async ({ page }) => {
  await service.signIn(page);
  await settled(page);
  const toggle = page.getByRole('checkbox', { name: 'By meaning' });
  await expect(toggle, 'on by default with the model installed').toBeChecked();
  await expect(page.getByText(/Finding meaning in/), 'every meeting is embedded').toHaveCount(0);
  const search = page.getByRole('searchbox', { name: 'Search meetings' });
  const results = page.getByRole('region', { name: 'Search results' });
  const headings = results.getByRole('heading', { level: 3 });

  const searched = (mode: string) =>
    page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === '/ui/search/meetings' && url.searchParams.get('mode') === mode;
    });
  let reply = searched('both');
  await search.fill('moving offices');
  expect((await reply).headers()['x-recorder-search-mode']).toBe('both');
  await expect(headings.first()).toHaveText('Thursday sync');
  const first = results.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Thursday sync' }) });
  await expect(first.getByRole('link').filter({ hasText: 'relocating to the new building downtown' }).first()).toBeVisible();
  await expect(first, 'no word of the search in it').toContainText('Close in meaning');
  await axe(page, 'search by meaning');
  await shots(page, 'library-search-meaning');

  // Off: by words only, and no line has these words.
  reply = searched('words');
  await toggle.uncheck();
  await reply;
  await expect(results.getByText('No results for “moving offices”.')).toBeVisible();
  await expect(headings).toHaveCount(0);

  // On again: found again; the hit opens the meeting at its line.
  reply = searched('both');
  await toggle.check();
  await reply;
  await expect(headings.first()).toHaveText('Thursday sync');
  await first.getByRole('link').filter({ hasText: 'relocating' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/meetings/${service.seeded[SYNC]}\\?t=`));
  await settled(page);
  await expect(page.getByRole('region', { name: 'Transcript' }).getByRole('listitem').filter({ hasText: RELOCATING })).toBeInViewport();
});

test('while older meetings are embedded the library says so; without the model there is no toggle', async ({ page }) => {
  // The service's own health, changed on the way to the page.
  let health = (body: Health) => ({ ...body, meaning: { ...body.meaning, remaining: 2 } });
  await page.route('**/ui/health', async (route) => {
    await route.fulfill({ json: health(await service.get<Health>('/ui/health')) });
  });
  await service.signIn(page);
  await settled(page);
  await expect(page.getByText('Finding meaning in 2 older meetings…')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'By meaning' })).toBeChecked();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'library-meaning-pending-1280-light.png') });

  // Health reads again while meetings wait: the line goes when they are done.
  health = (body) => body;
  await expect(page.getByText(/Finding meaning in/)).toHaveCount(0, { timeout: 10_000 });

  // No embedding model: no toggle, and the search goes by words.
  health = (body) => ({ ...body, meaning: { available: false, remaining: 0, meetings: body.meaning.meetings } });
  await page.reload();
  await settled(page);
  const reply = page.waitForResponse((r) => new URL(r.url()).pathname === '/ui/search/meetings');
  await page.getByRole('searchbox', { name: 'Search meetings' }).fill('relocating');
  expect(new URL((await reply).url()).searchParams.get('mode')).toBe('words');
  await expect(page.getByRole('region', { name: 'Search results' }).getByRole('heading', { level: 3 })).toHaveText(['Thursday sync']);
  await expect(page.getByRole('checkbox', { name: 'By meaning' })).toHaveCount(0);
});

test('"Ask about this meeting" answers from that meeting only', async ({ page }) => {
  const id = service.seeded[SYNC];
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const box = page.getByRole('region', { name: 'Ask about this meeting' });
  const field = box.getByRole('textbox', { name: 'Ask about this meeting' });

  // Priya's line is in another meeting: never cited here.
  await field.fill('Who is covering for Sam in August?');
  let reply = asked(page);
  await field.press('Enter');
  let response = await reply;
  expect(response.request().postDataJSON()).toEqual({ question: 'Who is covering for Sam in August?', meeting_id: id });
  const elsewhere = (await response.json()) as AskAnswer;
  expect(elsewhere.citations.every((c) => c.meeting_id === id), JSON.stringify(elsewhere)).toBe(true);
  await expect(box.getByText(PRIYA)).toHaveCount(0);
  // Nothing here passes the floor: the closest lines, under a plain notice.
  expect(elsewhere.closest, JSON.stringify(elsewhere)).toBe(true);
  expect(elsewhere.citations.length).toBeGreaterThan(0);
  await expect(box.getByRole('status')).toHaveText(CLOSEST);
  await expect(box.getByRole('heading', { name: 'Closest lines' })).toBeVisible();
  await expect(box.getByRole('link')).toHaveCount(elsewhere.citations.length);
  await expect(box.getByText(/^Answered by/)).toHaveCount(0);
  await axe(page, 'meeting with the closest lines');
  await shots(page, 'ask-meeting-closest');

  // Its own line answers, and opens the transcript there.
  await field.fill('When do we move to the new offices?');
  reply = asked(page);
  await box.getByRole('button', { name: 'Ask' }).click();
  response = await reply;
  const here = (await response.json()) as AskAnswer;
  expect(here.citations.length).toBeGreaterThan(0);
  expect(here.citations.every((c) => c.meeting_id === id)).toBe(true);
  const line = box.getByRole('link').filter({ hasText: RELOCATING });
  await expect(line).toHaveAttribute('href', `/meetings/${id}?t=${lineStart(1)}`);
  await axe(page, 'meeting with an answer');
  await shots(page, 'ask-meeting');
  await line.click();
  await expect(page).toHaveURL(new RegExp(`/meetings/${id}\\?t=${lineStart(1)}$`));
  await openedAtLine(page, RELOCATING);
});

test('the recording page asks about what was said so far', async ({ page }) => {
  const started = await service.call<{ id: string }>('POST', '/ui/recording/start', { body: { title: 'Budget call' } });
  expect(started.status, started.text).toBe(201);
  const id = started.body.id;
  try {
    await service.signIn(page);
    await page.goto(service.url('/recording'));
    await settled(page);
    await expect(page.getByRole('log', { name: 'Live transcript' })).toContainText(/budget/i, { timeout: 60_000 });
    // The line is saved once cut (the log shows it while it is spoken).
    let budget: Segment | undefined;
    await expect
      .poll(async () => {
        const said = await service.get<{ segments: Segment[] }>(`/ui/meetings/${id}/transcript`);
        budget = said.segments.find((s) => /budget/i.test(s.text));
        return budget !== undefined;
      }, { timeout: 60_000 })
      .toBe(true);

    const box = page.getByRole('region', { name: 'Ask about this meeting' });
    await expect(box.getByText('Answers come from what was said so far.')).toBeVisible();
    const field = box.getByRole('textbox', { name: 'Ask about this meeting' });
    await field.fill('Who will send the budget report?');
    const reply = asked(page);
    await field.press('Enter');
    const response = await reply;
    expect(response.request().postDataJSON()).toEqual({ question: 'Who will send the budget report?', meeting_id: id });
    const answer = (await response.json()) as AskAnswer;
    expect(answer.citations.length, JSON.stringify(answer)).toBeGreaterThan(0);
    expect(answer.citations.every((c) => c.meeting_id === id)).toBe(true);
    const link = box.getByRole('link').filter({ hasText: budget!.text });
    await expect(link).toHaveAttribute('href', `/meetings/${id}?t=${budget!.start_ms}`);
    await shots(page, 'ask-live');
  } finally {
    const stopped = await service.call('POST', '/ui/recording/stop');
    expect(stopped.status, stopped.text).toBe(200);
  }
});

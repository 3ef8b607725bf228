import { test, expect, settled } from '../helpers/fixtures';
import { Service, type Meeting, type MeetingList, type Segment } from '../helpers/service';

// The library: newest first, paging to the oldest, search with highlights, and
// a search hit that opens its meeting at the matching line.

const COUNT = 120;

function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  return h > 0 ? `${h}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}` : `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
} // more than two pages of 50

let service: Service;
let all: Meeting[] = [];

test.beforeAll(async () => {
  service = await Service.start({ seed: { meetings: COUNT, segments: 30 } });
  for (let offset = 0; offset < COUNT; offset += 200) {
    all.push(...(await service.get<MeetingList>(`/ui/meetings?limit=200&offset=${offset}`)).meetings);
  }
});

test.afterAll(async () => {
  await service?.stop();
});

test('meetings are listed newest first and scrolling reaches the oldest', async ({ page }) => {
  expect(all).toHaveLength(COUNT);
  const byDate = [...all].sort((a, b) => b.started_at - a.started_at);
  expect(all.map((m) => m.id), 'the API lists newest first').toEqual(byDate.map((m) => m.id));

  await service.signIn(page);
  await settled(page);
  const list = page.getByRole('region', { name: 'Meetings' });
  const titles = list.getByRole('link');
  await expect(titles.first()).toHaveText(all[0].title);
  await expect(page.getByText(`${COUNT} meetings`)).toBeVisible();

  // Scroll (and press "Load more" when it is offered) until every meeting is loaded.
  let before = 0;
  for (let round = 0; round < 30 && (await titles.count()) < COUNT; round++) {
    await titles.last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(400);
    const now = await titles.count();
    const more = page.getByRole('button', { name: 'Load more' });
    if (now === before && (await more.isVisible())) await more.click({ timeout: 2_000 }).catch(() => {});
    before = now;
  }
  await expect(titles).toHaveCount(COUNT);
  expect(await titles.allInnerTexts(), 'in the order of started_at, newest first').toEqual(all.map((m) => m.title));
  await titles.last().scrollIntoViewIfNeeded();
  await expect(titles.last()).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  // Open a meeting deep in the list, then Back: the library lists as many
  // meetings as before and is scrolled to where it was.
  const deep = titles.nth(COUNT - 10);
  await deep.scrollIntoViewIfNeeded();
  const title = await deep.innerText();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled, 'far down the page').toBeGreaterThan(2_000);
  await deep.click();
  await expect(page).toHaveURL(/\/meetings\//);
  await expect(page.getByRole('textbox', { name: 'Meeting title' })).toHaveValue(title);
  await page.goBack();
  await expect(titles).toHaveCount(COUNT);
  await expect(titles.nth(COUNT - 10)).toBeInViewport();
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(50);
});

test('search shows grouped results with highlights, and a hit opens the meeting at its line', async ({ page }) => {
  await service.signIn(page);
  await settled(page);
  const search = page.getByRole('searchbox', { name: 'Search meetings' });
  await search.fill('zeppelin');

  const results = page.getByRole('region', { name: 'Search results' });
  await expect(results).toBeVisible();
  const marks = results.locator('mark');
  await expect(marks.first()).toBeVisible();
  for (const text of await marks.allInnerTexts()) expect(text.toLowerCase()).toBe('zeppelin');

  // Grouped: one heading per meeting, each naming a meeting that has the word,
  // with its number of matches; the last word typed is a prefix ("zeppelin*").
  type Grouped = { meetings: { meeting_id: string; meeting_title: string; matches: number }[]; total: number };
  const grouped = await service.get<Grouped>('/ui/search/meetings?q=zeppelin*&limit=10');
  const expected = (await service.get<{ results: { meeting_id: string; meeting_title: string; source: string; start_ms?: number }[] }>(
    '/ui/search?q=zeppelin&limit=100',
  )).results;
  expect(expected.length).toBeGreaterThan(0);
  const meetings = [...new Set(expected.map((r) => r.meeting_id))];
  expect(grouped.total, 'the same meetings as the flat search').toBe(meetings.length);
  await expect(results.getByRole('heading', { level: 3 })).toHaveCount(meetings.length);
  await expect(results.getByRole('heading', { level: 3 })).toHaveText(grouped.meetings.map((m) => m.meeting_title));
  const label = grouped.total === 1 ? '1 meeting' : `${grouped.total} meetings`;
  await expect(page.getByRole('status').filter({ hasText: /meeting/ }).first()).toHaveText(label);
  const first = grouped.meetings[0];
  await expect(results.getByRole('listitem').filter({ has: page.getByRole('heading', { name: first.meeting_title }) }).first())
    .toContainText(first.matches === 1 ? '1 match' : `${first.matches} matches`);

  // The quoted phrase works as well.
  await search.fill('"quarterly roadmap review"');
  await expect(results.locator('mark').first()).toBeVisible();
  await expect(results.locator('mark').first()).toHaveText(/quarterly|roadmap|review/i);

  // Back to zeppelin and open a transcript hit.
  await search.fill('zeppelin');
  await expect(results.locator('mark').first()).toBeVisible();
  const hit = expected.find((r) => r.source === 'transcript' && r.start_ms !== undefined);
  expect(hit, 'a transcript hit for zeppelin').toBeTruthy();
  const transcript = await service.get<{ segments: Segment[] }>(`/ui/meetings/${hit!.meeting_id}/transcript`);
  const line = transcript.segments.find((s) => s.start_ms === hit!.start_ms)!;
  expect(line.text.toLowerCase()).toContain('zeppelin');

  const group = results.getByRole('listitem').filter({ has: page.getByRole('heading', { name: hit!.meeting_title }) });
  const link = group.getByRole('link').filter({ hasText: clock(line.start_ms) }).first();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/meetings/${hit!.meeting_id}`));
  await settled(page);
  await expect(page.getByRole('textbox', { name: 'Meeting title' })).toHaveValue(hit!.meeting_title);

  const region = page.getByRole('region', { name: 'Transcript' });
  const row = region.getByRole('listitem').filter({ hasText: line.text });
  await expect(row).toBeInViewport();
  // Highlighted: the line's play button has the focus, and the line stands out from its neighbours.
  await expect(row.getByRole('button', { name: /^Play from/ })).toBeFocused();
  const background = (el: Element) => getComputedStyle(el).backgroundColor;
  const highlighted = await row.evaluate(background);
  const others = await region.getByRole('listitem').filter({ hasNotText: line.text }).first().evaluate(background);
  expect(highlighted, 'the matching line is highlighted').not.toBe(others);
});

test('a search hit finds its line even when the transcript arrives before the meeting', async ({ page }) => {
  // Replies can come back in any order; hold the meeting's own reply back a little.
  const hit = (await service.get<{ results: { meeting_id: string; source: string; start_ms?: number }[] }>(
    '/ui/search?q=zeppelin&limit=100',
  )).results.find((r) => r.source === 'transcript' && r.start_ms !== undefined)!;
  const line = (await service.get<{ segments: Segment[] }>(`/ui/meetings/${hit.meeting_id}/transcript`)).segments.find(
    (s) => s.start_ms === hit.start_ms,
  )!;
  await page.route(new RegExp(`/ui/meetings/${hit.meeting_id}$`), async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await service.signIn(page);
  await page.getByRole('searchbox', { name: 'Search meetings' }).fill('zeppelin');
  const results = page.getByRole('region', { name: 'Search results' });
  await results.getByRole('link').filter({ hasText: clock(line.start_ms) }).filter({ hasText: 'zeppelin' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/meetings/${hit.meeting_id}`));
  const row = page.getByRole('region', { name: 'Transcript' }).getByRole('listitem').filter({ hasText: line.text });
  await expect(row).toBeInViewport();
  await expect(row.getByRole('button', { name: /^Play from/ })).toBeFocused();
});

test('search pages through every matching meeting, and a word still being typed is a prefix', async ({ page }) => {
  await service.signIn(page);
  await settled(page);
  const search = page.getByRole('searchbox', { name: 'Search meetings' });
  const results = page.getByRole('region', { name: 'Search results' });
  const headings = results.getByRole('heading', { level: 3 });

  // "zeppeli" is not a word of the transcripts; as a prefix it finds "zeppelin".
  await search.fill('zeppeli');
  await expect(results.locator('mark').first()).toHaveText(/zeppelin/i);

  type Grouped = { meetings: { meeting_id: string }[]; total: number; next_cursor: string | null };
  const first = await service.get<Grouped>('/ui/search/meetings?q=budget*&limit=10');
  expect(first.total, 'a common word matches more than one page').toBeGreaterThan(10);
  await search.fill('budget');
  await expect(page.getByRole('status').filter({ hasText: /meetings/ }).first()).toHaveText(`${first.total} meetings`);
  await expect(headings).toHaveCount(10);
  const more = page.getByRole('button', { name: 'Show more meetings' });
  for (let shown = 10; shown < first.total; shown = Math.min(shown + 10, first.total)) {
    await more.click();
    await expect(headings).toHaveCount(Math.min(shown + 10, first.total));
  }
  await expect(more).toHaveCount(0);
  const listed = await service.get<MeetingList>('/ui/meetings?q=budget*&limit=200');
  const ids = await headings
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => (link.getAttribute('href') ?? '').split('/').pop()));
  expect(new Set(ids).size, 'no meeting twice').toBe(first.total);
  expect(ids, 'the meetings of the list with the same q, newest first').toEqual(listed.meetings.map((m) => m.id));
});

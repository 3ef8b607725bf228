import { test, expect, settled } from '../helpers/fixtures';
import { Service, type MeetingList } from '../helpers/service';

// CONTRACT §9 sign-in: without a session every page shows only a sign-in page
// that explains `recorder open`, and no data; the one-time link signs in.

let service: Service;
let titles: string[] = [];

test.beforeAll(async () => {
  service = await Service.start({ seed: { meetings: 12, segments: 10 } });
  titles = (await service.get<MeetingList>('/ui/meetings?limit=50')).meetings.map((m) => m.title);
});

test.afterAll(async () => {
  await service?.stop();
});

test('without a session every page shows only the sign-in page, and no meeting data', async ({ page }) => {
  const meetingId = (await service.get<MeetingList>('/ui/meetings?limit=1')).meetings[0].id;
  const dataReplies: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/ui/') && url.pathname !== '/ui/events' && response.status() === 200) {
      dataReplies.push(url.pathname);
    }
  });
  for (const path of ['/', `/meetings/${meetingId}`, '/recording', '/settings/general', '/privacy']) {
    await page.goto(service.url(path));
    await expect(page.getByText(/recorder open/)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/sign/i);
    const text = await page.locator('body').innerText();
    for (const title of titles) expect(text, `${path} must not show "${title}"`).not.toContain(title);
    await expect(page.getByRole('searchbox', { name: 'Search meetings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start recording' })).toHaveCount(0);
  }
  expect(dataReplies, 'no /ui data was served without a session').toEqual([]);
});

test('the login link signs in and the library shows; the link works once', async ({ page, browser }) => {
  const url = await service.loginUrl();
  await page.goto(url);
  await expect(page).toHaveURL(service.url('/'));
  await settled(page);
  await expect(page.getByRole('heading', { name: 'Library', level: 1 })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search meetings' })).toBeVisible();
  await expect(page.getByRole('link', { name: titles[0], exact: true }).first()).toBeVisible();

  // The same link in another browser context: used, so no session.
  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    const reply = await second.goto(url);
    expect(reply?.status(), 'a used login link is refused').toBe(401);
    expect(await second.locator('body').innerText()).not.toContain(titles[0]);
    await second.goto(service.url('/'));
    await expect(second.getByText(/recorder open/)).toBeVisible();
    await expect(second.getByRole('link', { name: titles[0], exact: true })).toHaveCount(0);
  } finally {
    await other.close();
  }
});

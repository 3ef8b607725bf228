import { test, expect, settled } from '../helpers/fixtures';
import { Service, type Meeting, type MeetingList } from '../helpers/service';

// A meeting's edits on its page: an action item is a checkbox named by its
// text and ticking it persists; tags and attendees are added and removed.

let service: Service;

test.beforeAll(async () => {
  service = await Service.start({ seed: { meetings: 6, segments: 20 } });
});

test.afterAll(async () => {
  await service?.stop();
});

test('ticking an action item persists across a reload and in the API', async ({ page }) => {
  // A seeded ready meeting with an open item (xtask marks about 30 % done).
  let meeting: Meeting | null = null;
  for (const m of (await service.get<MeetingList>('/ui/meetings?limit=50')).meetings) {
    const full = await service.get<Meeting>(`/ui/meetings/${m.id}`);
    const texts = full.action_items!.map((i) => i.text);
    if (full.action_items!.some((i) => !i.done && texts.filter((t) => t === i.text).length === 1)) {
      meeting = full;
      break;
    }
  }
  expect(meeting, 'a seeded meeting with an open action item').not.toBeNull();
  const item = meeting!.action_items!.find((i) => !i.done)!;

  await service.signIn(page);
  await page.goto(service.url(`/meetings/${meeting!.id}`));
  await settled(page);
  const box = page.getByRole('checkbox', { name: item.text, exact: true });
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(box).toBeChecked();
  // The change reaches the service (not only the page).
  await expect
    .poll(async () => (await service.get<Meeting>(`/ui/meetings/${meeting!.id}`)).action_items!.find((i) => i.id === item.id)!.done)
    .toBe(true);

  await page.reload();
  await settled(page);
  await expect(page.getByRole('checkbox', { name: item.text, exact: true })).toBeChecked();
  const after = await service.get<Meeting>(`/ui/meetings/${meeting!.id}`);
  expect(after.action_items!.find((i) => i.id === item.id)!.done).toBe(true);
  // The others did not change.
  for (const other of meeting!.action_items!.filter((i) => i.id !== item.id)) {
    expect(after.action_items!.find((i) => i.id === other.id)!.done).toBe(other.done);
  }

  // And back.
  await page.getByRole('checkbox', { name: item.text, exact: true }).uncheck();
  await expect
    .poll(async () => (await service.get<Meeting>(`/ui/meetings/${meeting!.id}`)).action_items!.find((i) => i.id === item.id)!.done)
    .toBe(false);
});

test('tags and attendees added and removed on the page reach the service', async ({ page }) => {
  const id = (await service.get<MeetingList>('/ui/meetings?limit=1')).meetings[0].id;
  const before = await service.get<Meeting>(`/ui/meetings/${id}`);
  await service.signIn(page);
  await page.goto(service.url(`/meetings/${id}`));
  await settled(page);
  const current = () => service.get<Meeting>(`/ui/meetings/${id}`);

  const tag = page.getByLabel('New tag', { exact: true });
  await tag.fill('  quarterly  ');
  await page.getByRole('button', { name: 'Add tag' }).click();
  await expect.poll(async () => (await current()).tags).toEqual([...before.tags, 'quarterly']);
  await expect(tag).toHaveValue('');
  // The same tag again changes nothing and empties the field.
  await tag.fill('quarterly');
  await page.getByRole('button', { name: 'Add tag' }).click();
  await expect(tag).toHaveValue('');
  expect((await current()).tags).toEqual([...before.tags, 'quarterly']);
  await page.getByRole('button', { name: 'Remove tag quarterly' }).click();
  await expect.poll(async () => (await current()).tags).toEqual(before.tags);

  const name = page.getByLabel('Attendee name', { exact: true });
  await name.fill('Grace Hopper');
  await page.getByRole('button', { name: 'Add attendee' }).click();
  const added = [...before.attendees.map((a) => a.name), 'Grace Hopper'];
  await expect.poll(async () => (await current()).attendees.map((a) => a.name)).toEqual(added);
  await expect(name).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Remove attendee Grace Hopper' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove attendee Grace Hopper' }).click();
  await expect.poll(async () => (await current()).attendees.map((a) => a.name)).toEqual(before.attendees.map((a) => a.name));
  await expect(page.getByRole('button', { name: 'Remove attendee Grace Hopper' })).toHaveCount(0);
});

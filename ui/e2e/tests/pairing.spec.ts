import { test, expect, settled, sleep } from '../helpers/fixtures';
import { Service } from '../helpers/service';

// Settings → Extension: a pairing code with its countdown; the paired client
// appears with "Revoke"; revoking removes it and its token stops working.

let service: Service;

test.beforeAll(async () => {
  service = await Service.start();
});

test.afterAll(async () => {
  await service?.stop();
});

test('show a pairing code, pair with it, and revoke the paired client', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/extension'));
  await settled(page);
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Show pairing code' }).click();
  const code = page.getByText(/^\s*\d{6}\s*$/);
  await expect(code).toBeVisible();
  const digits = (await code.innerText()).trim();
  expect(digits).toMatch(/^\d{6}$/);

  // A countdown: a time left that goes down (two minutes at most).
  const countdown = page.getByText(/Expires in/);
  await expect(countdown).toBeVisible();
  const seconds = async () => {
    const m = /(\d+):(\d{2})/.exec(await countdown.innerText());
    expect(m, 'the countdown shows m:ss').not.toBeNull();
    return Number(m![1]) * 60 + Number(m![2]);
  };
  const first = await seconds();
  expect(first).toBeGreaterThan(100);
  expect(first).toBeLessThanOrEqual(120);
  await sleep(2_100);
  expect(await seconds()).toBeLessThan(first);

  // The extension's side: no token needed.
  const paired = await service.call<{ token: string }>('POST', '/v1/pair', { token: 'none', body: { code: digits } });
  expect(paired.status, paired.text).toBe(200);
  const token = paired.body.token;
  expect(token).toBeTruthy();

  const revoke = page.getByRole('button', { name: 'Revoke' });
  await expect(revoke).toHaveCount(1);
  await expect(page.getByText(digits, { exact: true })).toHaveCount(0);

  // The paired token works for its scope until revoked.
  const health = () =>
    fetch(service.url('/v1/health'), { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);
  expect(await health()).toBe(200);

  await revoke.click();
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await expect(page.getByText(/No extension is paired/)).toBeVisible();
  expect(await health()).toBe(401);
  expect((await service.get<{ pairings: unknown[] }>('/ui/pairings')).pairings).toEqual([]);
});

test('recorder://pair opens Settings → Extension with a fresh code showing', async ({ page }) => {
  // What the extension's "Open pairing settings" and the desktop's URL handler run.
  await page.goto(await service.loginUrl('recorder://pair'));
  await page.waitForURL(service.url('/settings/extension'));
  await expect(page.getByText(/^\s*\d{6}\s*$/)).toBeVisible();
  await expect(page.getByText(/Expires in/)).toBeVisible();
  // The flag is gone from the address: a refresh does not mint another code.
  expect(new URL(page.url()).search).toBe('');
});

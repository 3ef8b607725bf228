import { test, expect, settled } from '../helpers/fixtures';
import { Service } from '../helpers/service';

// A new data folder: the service made no outbound request, and the Privacy
// Ledger says so in plain words.

let service: Service;

test.beforeAll(async () => {
  service = await Service.start();
});

test.afterAll(async () => {
  await service?.stop();
});

test('an empty ledger shows the plain "nothing has left this computer" state', async ({ page }) => {
  expect((await service.get<{ entries: unknown[] }>('/ui/ledger')).entries).toEqual([]);
  await service.signIn(page);
  await page.goto(service.url('/privacy'));
  await settled(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Privacy/);
  await expect(page.getByText(/nothing has left/i)).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
});

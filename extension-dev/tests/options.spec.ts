/**
 * The options page: the service's address, checked (loopback 127.0.0.1 only,
 * the one host the extension may reach); a new address forgets the pairing,
 * so a token is never sent to a service it was not issued by.
 */
import { expect, test } from '@playwright/test';
import { badge, shoot, stored } from './helpers/browser';
import { pair, world, type World } from './helpers/setup';

let w: World;
test.beforeEach(async () => {
  w = await world();
});
test.afterEach(async () => {
  await w?.close();
});

test('the address is checked, saved, and a new one forgets the pairing', async () => {
  await pair(w);
  const options = await w.browser.context.newPage();
  await options.goto(`chrome-extension://${w.browser.extensionId}/options/options.html`);
  const field = options.getByLabel('Address of the Recorder app');
  await expect(field).toHaveValue(w.service.base);
  await expect(options.getByText(`Paired with the app at ${w.service.base}.`)).toBeVisible();

  for (const [typed, complaint] of [
    ['https://example.com', 'must start with http://127.0.0.1'],
    ['http://localhost:47321', 'must start with http://127.0.0.1'],
    ['http://127.0.0.1:47321/v1', 'only the address and port'],
    ['not a url', 'not a URL'],
  ]) {
    await field.fill(typed);
    await options.getByRole('button', { name: 'Save' }).click();
    await expect(options.getByRole('alert')).toContainText(complaint);
  }
  await shoot(options, 'options-refused');
  expect((await stored(w.browser)).baseUrl).toBe(w.service.base);

  // Same address again: the pairing stays.
  await field.fill(`${w.service.base}/`);
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(options.getByRole('status')).toHaveText(`Saved: ${w.service.base}`);
  expect(typeof (await stored(w.browser)).token).toBe('string');

  await options.getByRole('button', { name: 'Use the default' }).click();
  await expect(options.getByRole('status')).toHaveText('Saved: http://127.0.0.1:47321');
  expect(await stored(w.browser)).toEqual({ baseUrl: 'http://127.0.0.1:47321' });
  await expect.poll(() => badge(w.browser)).toBe('PAIR');
  await expect(options.getByText('Not paired.')).toBeVisible();
  await shoot(options, 'options-default');
});

import path from 'node:path';
import fs from 'node:fs';
import { test, expect, settled } from '../helpers/fixtures';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service } from '../helpers/service';

// A hand-edited settings.json with a value out of range does not stop the
// service: the default applies, Settings lists the key and why, and fixing it
// in the form clears the notice. The file keeps the person's text until then.

test('an out-of-range value in settings.json is listed, its default applies, and fixing it clears the notice', async ({ page }) => {
  const service = await Service.start({
    settings: { retention: { delete_meetings_after_days: 50000 }, general: { user_name: 'Ada' } },
  });
  try {
    const file = path.join(service.dataDir, 'settings.json');
    const written = fs.readFileSync(file, 'utf8');
    await service.signIn(page);
    await page.goto(service.url('/settings/general'));
    await settled(page);
    const notice = page.getByRole('note', { name: 'Settings not valid' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('retention.delete_meetings_after_days');
    await expect(notice).toContainText('1 to 36500');
    await expect(page.getByRole('textbox', { name: 'Your name' })).toHaveValue('Ada');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-invalid-value.png'), fullPage: true });
    await page.setViewportSize({ width: 400, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(notice).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-invalid-value-400-dark.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(fs.readFileSync(file, 'utf8'), 'the service never rewrote the file').toBe(written);

    await notice.getByRole('link', { name: 'retention.delete_meetings_after_days' }).click();
    await settled(page);
    const days = page.getByRole('spinbutton', { name: 'Delete meetings after (days)' });
    await expect(days).toHaveValue('50000');
    await days.fill('90');
    await page.getByRole('button', { name: 'Save retention settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    await expect(notice).toHaveCount(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).retention.delete_meetings_after_days).toBe(90);
  } finally {
    await service.stop();
  }
});

import fs from 'node:fs';
import path from 'node:path';
import { test, expect, settled } from '../helpers/fixtures';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service } from '../helpers/service';

// Settings → Transcription → Performance: where transcription runs, as the
// health check tells it (this test machine has no GPU: the CPU, and why), how
// many imported files are transcribed at once, and `transcription.device`
// chosen, saved and shown after a reload ("CPU (as set)").

interface Device {
  device: string;
  runs_on: string;
  gpu?: string | null;
  reason?: string | null;
  file_workers: number;
  threads_per_worker: number;
}

let service: Service;

test.beforeAll(async () => {
  service = await Service.start({});
});

test.afterAll(async () => {
  await service?.stop();
});

/** Health's `transcription`, once the service's GPU search (a helper process
 * started by the first health check) is done: until then it is left out. */
async function transcriptionDevice(): Promise<Device> {
  let device: Device | undefined;
  await expect
    .poll(async () => {
      device = (await service.get<{ transcription?: Device }>('/ui/health')).transcription;
      return device !== undefined;
    }, 'the GPU search ends')
    .toBe(true);
  return device as Device;
}

test('where transcription runs is shown, and the CPU can be chosen and kept', async ({ page }) => {
  // The page first, on a service that has not looked for a GPU yet: the
  // section appears once it has (the page asks again).
  await service.signIn(page);
  await page.goto(service.url('/settings/transcription'));
  await settled(page);
  const status = page.getByRole('region', { name: 'Transcription device' });
  await expect(status).toContainText('Runs on: CPU');
  const health = await transcriptionDevice();
  expect(health.device, 'automatic unless set').toBe('auto');
  expect(health.runs_on, 'no GPU on the test machine').toBe('cpu');
  expect(health.reason, 'the CPU, and why').toBeTruthy();
  await expect(status).not.toContainText('(as set)');
  // The reason as a sentence: "no GPU was found (Vulkan)" → "No GPU was found (Vulkan)."
  const reason = (health.reason ?? '').trim();
  await expect(status).toContainText(reason[0].toUpperCase() + reason.slice(1));
  const files = health.file_workers === 1 ? 'one' : String(health.file_workers);
  await expect(status).toContainText(`Imported files: ${files} at a time`);
  await expect(status).toContainText(`${health.threads_per_worker} thread`);
  await expect(status, 'no model in use: no advice on a larger one').not.toContainText('larger model');

  const device = page.getByRole('combobox', { name: 'Run transcription on' });
  await expect(device, 'automatic until chosen otherwise').toHaveValue('auto');
  expect(await device.locator('option').allInnerTexts()).toEqual(['Automatic (GPU where there is one)', 'CPU only', 'GPU']);
  await expect(device).toHaveAccessibleDescription(/Intel, AMD or NVIDIA, through Vulkan/);
  await device.selectOption({ label: 'CPU only' });
  await page.getByRole('button', { name: 'Save transcription settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const saved = await service.get<{ transcription: { device?: string } }>('/ui/settings');
  expect(saved.transcription.device).toBe('cpu');
  expect((await transcriptionDevice()).device).toBe('cpu');

  await page.reload();
  await settled(page);
  await expect(page.getByLabel('Run transcription on')).toHaveValue('cpu');
  await expect(page.getByRole('region', { name: 'Transcription device' })).toContainText('Runs on: CPU (as set)');
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-transcription-device.png'), fullPage: true });

  await page.getByLabel('Run transcription on').selectOption({ label: 'Automatic (GPU where there is one)' });
  await page.getByRole('button', { name: 'Save transcription settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  expect((await service.get<{ transcription: { device?: string } }>('/ui/settings')).transcription.device).toBe('auto');
  await expect(page.getByRole('region', { name: 'Transcription device' }), 'read again when the settings change').not.toContainText(
    '(as set)',
  );
});

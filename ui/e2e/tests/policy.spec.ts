import { test, expect, settled } from '../helpers/fixtures';
import { Service } from '../helpers/service';

// Managed policy: each setting a configured key forces is shown disabled with
// "Managed by Acme" next to it (CONTRACT §9, interface-spec "Managed policy keys").

const POLICY = {
  OrganizationName: 'Acme',
  DisableAutoExport: true,
  ForceLocalModel: true,
  DisableAgentRecording: true,
  DisableAutoRecordApps: true,
  MaxRetentionDays: 30,
};

let service: Service;

test.beforeAll(async () => {
  service = await Service.start({ policy: POLICY, policyRefreshSecs: 1 });
});

test.afterAll(async () => {
  await service?.stop();
});

test.beforeEach(async ({ page }) => {
  await service.signIn(page);
});

async function open(page: import('@playwright/test').Page, section: string): Promise<void> {
  await page.goto(service.url(`/settings/${section}`));
  await settled(page);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
}

test('Export: auto-export is off, disabled and managed by Acme (DisableAutoExport)', async ({ page }) => {
  await open(page, 'export');
  const auto = page.getByRole('checkbox', { name: 'Auto-export Markdown after each meeting' });
  await expect(auto).toBeDisabled();
  await expect(auto).not.toBeChecked();
  await expect(auto).toHaveAccessibleDescription(/Managed by Acme/);
  await expect(page.getByText('Managed by Acme')).toBeVisible();
  // What the person may still choose stays enabled.
  await expect(page.getByRole('textbox', { name: 'Export folder' })).toBeEnabled();
});

test('AI: cloud providers and their keys are refused and shown as managed by Acme (ForceLocalModel)', async ({ page }) => {
  await open(page, 'ai');
  for (const name of ['Anthropic key', 'OpenAI-compatible API key', 'Local model server key']) {
    await expect(page.getByLabel(name, { exact: true })).toBeVisible();
  }
  await expect(page.getByText(/Managed by Acme/).first()).toBeVisible();
  // Saving a cloud provider's API key is refused under ForceLocalModel: its control is disabled and says why.
  for (const name of ['Anthropic key', 'OpenAI-compatible API key']) {
    const input = page.getByLabel(name, { exact: true });
    await expect(input, `${name} field`).toBeDisabled();
    await expect(input, `${name} field`).toHaveAccessibleDescription(/Managed by Acme/);
  }
  // The local server stays allowed.
  await expect(page.getByLabel('Local model server key', { exact: true })).toBeEnabled();
});

test('AI: a cloud provider chosen before the policy is forced back to the built-in engine and managed', async ({ browser }) => {
  const cloud = await Service.start({ policy: POLICY, settings: { ai: { provider: 'anthropic' } } });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await cloud.signIn(page);
    await page.goto(cloud.url('/settings/ai'));
    await settled(page);
    const provider = page.getByRole('combobox', { name: 'Notes provider' });
    await expect(provider).toBeDisabled();
    await expect(provider).toHaveValue('builtin');
    await expect(provider).toHaveAccessibleDescription(/Managed by Acme/);
  } finally {
    await context.close();
    await cloud.stop();
  }
});

test('General: "Allow agents to start recordings" is off, disabled and managed (DisableAgentRecording)', async ({ page }) => {
  await open(page, 'general');
  const allow = page.getByRole('checkbox', { name: 'Allow agents to start recordings' });
  await expect(allow).toBeDisabled();
  await expect(allow).not.toBeChecked();
  await expect(allow).toHaveAccessibleDescription(/Managed by Acme/);
  await expect(page.getByRole('textbox', { name: 'Your name' })).toBeEnabled();
});

test('Recording: "Record without asking for" cannot be changed (DisableAutoRecordApps)', async ({ page }) => {
  await open(page, 'recording');
  const section = page.getByRole('region', { name: 'Record without asking for' });
  await expect(section.getByText('Managed by Acme')).toBeVisible();
  await expect(section.getByRole('combobox')).toBeDisabled();
  await expect(section.getByRole('button', { name: 'Add' })).toBeDisabled();
});

test('Retention: both durations are capped at 30 days and managed (MaxRetentionDays)', async ({ page }) => {
  await open(page, 'retention');
  for (const name of ['Keep audio files (days)', 'Delete meetings after (days)']) {
    const field = page.getByRole('spinbutton', { name });
    await expect(field).toBeDisabled();
    await expect(field).toHaveValue('30');
    await expect(field).toHaveAccessibleDescription(/Managed by Acme/);
  }
});

test('a policy change is followed without restarting (the refresh period)', async ({ page }) => {
  await open(page, 'export');
  await expect(page.getByRole('checkbox', { name: 'Auto-export Markdown after each meeting' })).toBeDisabled();
  service.writePolicy({ ...POLICY, DisableAutoExport: null });
  try {
    await expect
      .poll(async () => {
        await page.reload();
        await settled(page);
        return page.getByRole('checkbox', { name: 'Auto-export Markdown after each meeting' }).isEnabled();
      }, { timeout: 15_000 })
      .toBe(true);
  } finally {
    service.writePolicy(POLICY);
  }
});

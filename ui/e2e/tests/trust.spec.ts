import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { test, expect, settled, sleep } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service } from '../helpers/service';

// Only the person decides (SECURITY.md): a page served from another port of
// this machine, in the same browser where the person is signed in, cannot use
// the session (the browser sends the cookie along, since cookies ignore ports,
// but the service refuses what does not come from its own pages); and signing
// out ends the session on the service.

let service: Service;
let folder: string;
let attacker: http.Server;
let attackerOrigin = '';

/** The attacking page: every request it can make with the person's cookie. */
function attackPage(base: string, promptId: string): string {
  return `<!doctype html><title>Notebook</title><body><h1>Just a local notebook</h1>
<iframe name="sink" style="display:none"></iframe>
<form id="f" method="POST" target="sink" enctype="text/plain" action="${base}/ui/recording/start">
  <input name='{"source_app":"recorder","x":"' value='"}'>
</form>
<script>
  const base = ${JSON.stringify(base)};
  const shots = [
    ['POST', '/ui/recording/start', {}],
    ['POST', '/ui/prompts/${promptId}/answer', { answer: 'record' }],
    ['POST', '/ui/pairing-code', {}],
    ['POST', '/ui/login-links', {}],
    ['POST', '/ui/models/install', { name: 'tiny.en' }],
    ['GET', '/ui/meetings', null],
    ['GET', '/ui/events', null],
  ];
  for (const [method, path, body] of shots) {
    fetch(base + path, {
      method, mode: 'no-cors', credentials: 'include',
      headers: body ? { 'Content-Type': 'text/plain' } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).catch(() => {});
  }
  try { new EventSource(base + '/ui/events', { withCredentials: true }); } catch (e) {}
  document.getElementById('f').submit();
  document.title = 'fired';
</script></body>`;
}

test.beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-trust-'));
  const { mic, sys } = callFiles(folder);
  service = await Service.start({ model: true, audio: { mic, sys, speed: 2 } });
});

test.afterAll(async () => {
  attacker?.close();
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('a page on another port cannot record, answer the card or mint codes with the session', async ({ page, context }) => {
  await service.signIn(page);
  await settled(page);
  const prompt = await service.call<{ prompt_id: string }>('POST', '/v1/recording/prompt', {
    body: { source_app: 'zoom', title: 'Board meeting', url: 'https://app.zoom.us/wc/1234/join' },
  });
  expect(prompt.status, prompt.text).toBe(200);
  const promptId = prompt.body.prompt_id;
  await expect(page.getByRole('dialog', { name: 'Record this meeting?' })).toBeVisible();

  attacker = http.createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(attackPage(service.base, promptId));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;

  // What reached the service from the attacking page, and what it answered.
  const answers: { path: string; status: number }[] = [];
  const evil = await context.newPage();
  evil.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === service.base) answers.push({ path: url.pathname, status: response.status() });
  });
  await evil.goto(attackerOrigin);
  await expect(evil).toHaveTitle('fired');
  await expect.poll(() => answers.length, { timeout: 10_000, message: JSON.stringify(answers) }).toBeGreaterThanOrEqual(8);
  await sleep(500);
  for (const answer of answers) expect(answer, 'refused as forbidden_origin').toMatchObject({ status: 403 });
  expect(answers.map((a) => a.path)).toEqual(
    expect.arrayContaining(['/ui/recording/start', `/ui/prompts/${promptId}/answer`, '/ui/pairing-code', '/ui/events']),
  );

  // Nothing changed: no recording, the card still waits, no setting changed.
  const health = await service.get<{ recording: { active: boolean } }>('/ui/health');
  expect(health.recording.active).toBe(false);
  const pending = await service.get<{ prompts: { prompt_id: string }[] }>('/ui/prompts');
  expect(pending.prompts.map((p) => p.prompt_id)).toContain(promptId);
  const settings = await service.get<{ general: { allow_remote_start: boolean } }>('/ui/settings');
  expect(settings.general.allow_remote_start).toBe(false);
  await expect(page.getByRole('dialog', { name: 'Record this meeting?' })).toBeVisible();

  // The app's own page still works with the same session: the person decides.
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('dialog', { name: 'Record this meeting?' })).toHaveCount(0);
  await evil.close();
});

test('sign out ends the session on the service; the old cookie is refused', async ({ page, context }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/general'));
  await settled(page);
  await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  await expect(page.getByText('this window')).toBeVisible();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-sessions.png'), fullPage: true });

  const cookie = (await context.cookies(service.base)).find((c) => c.name === 'recorder_session');
  expect(cookie, 'signed in').toBeTruthy();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/sign/i);
  await expect(page.getByText(/recorder open/)).toBeVisible();

  // Another program replaying the cookie, with the app's own Origin: refused.
  const replay = await fetch(service.url('/ui/settings'), {
    headers: { Cookie: `recorder_session=${cookie!.value}`, Origin: service.base },
  });
  expect(replay.status).toBe(401);
  await page.goto(service.url('/'));
  await expect(page.getByText(/recorder open/)).toBeVisible();
});

test('a policy file that breaks keeps the last good policy, and Settings says so', async ({ page }) => {
  const managed = await Service.start({ policy: { OrganizationName: 'Acme', DisableAudioExport: true } });
  try {
    await managed.kill();
    fs.writeFileSync(managed.policyPath, '{ "OrganizationName": "Acme", "DisableAudioExport": tru');
    await managed.restart();
    await managed.signIn(page);
    await page.goto(managed.url('/settings/general'));
    await settled(page);
    const alert = page.getByRole('alert', { name: 'Managed policy not read' });
    await expect(alert).toContainText("Your organisation's policy could not be read");
    await expect(alert).toContainText('malformed');
    await page.goto(managed.url('/settings/diagnostics'));
    await expect(page.getByText('Set by Acme.')).toBeVisible();
    await page.goto(managed.url('/settings/general'));
    await settled(page);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-policy-unreadable.png') });
  } finally {
    await managed.stop();
  }
});

// SECURITY.md, "A crafted file": the person can see whether the programs that
// read imports and notes models are confined on this machine (Linux with
// Landlock here), in the service's own words.
test('Diagnostics says that imports and notes models are opened by confined processes', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/diagnostics'));
  await settled(page);
  await expect(page.getByRole('heading', { name: 'Files from outside' })).toBeVisible();
  await expect(page.getByText('opened by confined processes')).toBeVisible();
  await expect(page.getByText(/^confined: files \(Landlock ABI \d+\), network \(seccomp\)/)).toBeVisible();
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-diagnostics-confinement.png') });
});

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, settled } from '../helpers/fixtures';
import { NOTES_TEST_MODEL, SCREENSHOT_DIR } from '../helpers/paths';
import { Service } from '../helpers/service';

// Settings → AI, the notes models on this computer (ai.provider "embedded"): the
// catalogue and its names, a download's progress and failure (from a mirror on
// loopback that holds the file half-way, then sends bytes that fail the
// checksum), adding the test model file through the form (it is used and the
// provider becomes "On this computer"), files that are refused with the
// service's words, and removing it.

interface NotesModelEntry {
  name: string;
  title: string;
  file_name: string;
  parameters: string | null;
  memory_bytes: number | null;
  custom: boolean;
  installed: boolean;
  active: boolean;
}
interface NotesModelList {
  models: NotesModelEntry[];
  active: { name: string; path: string } | null;
  model_path_env: boolean;
  worker_found: boolean;
}

/** A model mirror on loopback: sends half of a file, then the rest once released (bytes that fail the checksum). */
class Mirror {
  readonly requests: string[] = [];
  private release: () => void = () => {};
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  private constructor(private readonly server: http.Server) {}

  static async start(size: number): Promise<Mirror> {
    const server = http.createServer();
    const mirror = new Mirror(server);
    server.on('request', (request, response) => {
      mirror.requests.push(request.url ?? '');
      const body = Buffer.alloc(size, 7);
      response.writeHead(200, { 'Content-Length': String(size), 'Content-Type': 'application/octet-stream' });
      // The first half in pieces (so the download's progress events keep coming), then the rest once released.
      const piece = 64 * 1024;
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= size / 2) {
          clearInterval(timer);
          void mirror.released.then(() => response.end(body.subarray(sent)));
          return;
        }
        response.write(body.subarray(sent, sent + piece));
        sent += piece;
      }, 40);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return mirror;
  }

  get base(): string {
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('the mirror is not listening');
    return `http://127.0.0.1:${address.port}/mirror`;
  }

  finish(): void {
    this.release();
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let service: Service;
let mirror: Mirror;
let folder: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  expect(fs.existsSync(NOTES_TEST_MODEL), `${NOTES_TEST_MODEL} (scripts/notes-model.sh)`).toBe(true);
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-notes-model-'));
  mirror = await Mirror.start(4 * 1024 * 1024);
  service = await Service.start({ env: { RECORDER_MODEL_BASE_URL: mirror.base } });
});

test.afterAll(async () => {
  await service?.stop();
  await mirror?.stop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

async function openAi(page: Page): Promise<void> {
  await service.signIn(page);
  await page.goto(service.url('/settings/ai'));
  await settled(page);
  await expect(page.getByRole('region', { name: 'Notes model catalogue' })).toBeVisible();
}

/** target/ui-screenshots/<name>-<width>-<scheme>.png at both widths and schemes. */
async function shots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}-${scheme}.png`), fullPage: true, animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const list = () => service.get<NotesModelList>('/ui/notes-models');
const provider = async () => (await service.get<{ ai: { provider: string } }>('/ui/settings')).ai.provider;

test('the catalogue: a row per model with its size, memory and licence, and an Install button each', async ({ page }) => {
  const catalogue = await list();
  expect(catalogue.models.length).toBeGreaterThan(1);
  await openAi(page);

  const select = page.getByRole('combobox', { name: 'Notes provider' });
  await expect(select).toHaveValue('builtin');
  await expect(select.locator('option:checked')).toHaveText('Built-in engine (no model)');
  for (const label of ['On this computer', 'Local model server']) {
    await expect(select.getByRole('option', { name: label, exact: true })).toHaveCount(1);
  }

  const table = page.getByRole('region', { name: 'Notes model catalogue' });
  await expect(table.getByRole('row')).toHaveCount(catalogue.models.length + 1);
  for (const m of catalogue.models) {
    const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Install ${m.title}`, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${m.parameters} parameters`);
    await expect(row).toContainText(/needs about [\d.,]+ GB of memory/);
    await expect(row).toContainText('Not installed');
  }
  await expect(page.getByText('In use: none')).toBeVisible();
  const worker = page.getByText('recorder-llm, the program that runs notes models, is not installed');
  await expect(worker).toHaveCount(catalogue.worker_found ? 0 : 1);
  await expect(page.getByText('RECORDER_NOTES_MODEL_PATH chooses the model')).toHaveCount(0);
  await shots(page, 'settings-ai-notes-models');
});

test('Install shows the download as a progress bar; a download that fails says why and changes nothing', async ({ page }) => {
  const first = (await list()).models[0];
  await openAi(page);
  await page.getByRole('button', { name: `Install ${first.title}`, exact: true }).click();
  const bar = page.getByRole('progressbar', { name: `Downloading ${first.title}` });
  await expect(bar).toBeVisible();
  await expect(page.getByRole('button', { name: `Install ${first.title}`, exact: true })).toHaveCount(0);
  // Half of the file has come: the bar says how far (the events of the download).
  await expect(page.getByText(/^Downloading [1-9]\d %\s*[\d.]+ [kM]B of 4\.2 MB$/)).toBeVisible();
  await expect(bar).toHaveAttribute('max', String(4 * 1024 * 1024));
  await shots(page, 'settings-ai-notes-model-downloading');
  expect(mirror.requests).toEqual([`/mirror/${first.file_name}`]);

  mirror.finish();
  await expect(bar).toHaveCount(0, { timeout: 30_000 });
  const row = page.getByRole('region', { name: 'Notes model catalogue' }).getByRole('row').filter({ hasText: first.title });
  await expect(row).toContainText(/Download failed: .*SHA-256/);
  await expect(page.getByRole('button', { name: `Install ${first.title}`, exact: true })).toBeEnabled();
  expect(await provider()).toBe('builtin');
});

test('a model file added through the form is used, and the provider becomes "On this computer"', async ({ page }) => {
  await openAi(page);
  await page.getByRole('textbox', { name: 'Model file (GGUF)' }).fill(NOTES_TEST_MODEL);
  await page.getByRole('button', { name: 'Add model file' }).click();

  await expect.poll(async () => (await list()).active?.name ?? null).not.toBeNull();
  const after = await list();
  const added = after.models.find((m) => m.custom)!;
  expect(added.installed && added.active).toBe(true);
  expect(after.active!.name).toBe(added.name);
  await expect(page.getByRole('status').filter({ hasText: `Added ${added.title}.` })).toBeVisible();
  const row = page.getByRole('region', { name: 'Notes model catalogue' }).getByRole('row').filter({
    has: page.getByRole('button', { name: `Remove ${added.title}`, exact: true }),
  });
  await expect(row).toContainText('In use');
  await expect(row).toContainText('Added file');
  await expect(page.getByText(`In use: ${added.title}`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Model file (GGUF)' })).toHaveValue('');

  // Installing a notes model chose it: the provider select follows without a reload.
  expect(await provider()).toBe('embedded');
  await expect(page.getByRole('combobox', { name: 'Notes provider' })).toHaveValue('embedded');
  await expect(page.getByRole('combobox', { name: 'Notes provider' }).locator('option:checked')).toHaveText('On this computer');
  await shots(page, 'settings-ai-notes-model-added');

  await page.reload();
  await settled(page);
  await expect(page.getByRole('combobox', { name: 'Notes provider' })).toHaveValue('embedded');
  await expect(page.getByText(`In use: ${added.title}`)).toBeVisible();
});

test('"Use" chooses among installed models and saves ai.embedded_model', async ({ page }) => {
  const added = (await list()).models.find((m) => m.custom)!;
  const copy = await service.call('POST', '/ui/notes-models/add', { body: { path: NOTES_TEST_MODEL, name: 'smollm2-copy' } });
  expect(copy.status, copy.text).toBe(201);
  await openAi(page);
  // Two files with the same title are told apart by name.
  const other = `${added.title} (smollm2-copy)`;
  await page.getByRole('button', { name: `Use ${other}`, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Notes now use ${other}.` })).toBeVisible();
  await expect(page.getByText(`In use: ${other}`)).toBeVisible();
  const settings = await service.get<{ ai: { embedded_model: string | null } }>('/ui/settings');
  expect(settings.ai.embedded_model).toBe('smollm2-copy');
  expect((await list()).active?.name).toBe('smollm2-copy');
  await page.getByRole('button', { name: `Remove ${other}`, exact: true }).click();
  await expect(page.getByRole('button', { name: `Remove ${added.title}`, exact: true })).toBeVisible();
  await expect.poll(async () => (await list()).models.filter((m) => m.custom).length).toBe(1);
});

test('files that are not a whole GGUF model are refused with the service\'s words', async ({ page }) => {
  const text = path.join(folder, 'notes.gguf');
  fs.writeFileSync(text, 'These are not the weights of a model.\n');
  const truncated = path.join(folder, 'half.gguf');
  const whole = fs.readFileSync(NOTES_TEST_MODEL);
  fs.writeFileSync(truncated, whole.subarray(0, whole.length - 1024 * 1024));
  const before = (await list()).models.length;
  await openAi(page);
  const field = page.getByRole('textbox', { name: 'Model file (GGUF)' });

  await field.fill(text);
  await page.getByRole('button', { name: 'Add model file' }).click();
  await expect(page.getByRole('alert')).toContainText('is not a GGUF model file');
  await expect(field).toHaveValue(text);
  await shots(page, 'settings-ai-notes-model-refused');

  await field.fill(truncated);
  await page.getByRole('button', { name: 'Add model file' }).click();
  await expect(page.getByRole('alert')).toContainText('is truncated');
  expect((await list()).models.length).toBe(before);
});

test('removing the last model: the page says notes come from the built-in engine until one is installed', async ({ page }) => {
  const added = (await list()).models.find((m) => m.custom)!;
  await openAi(page);
  await page.getByRole('button', { name: `Remove ${added.title}`, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Removed ${added.title}.` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Remove ${added.title}`, exact: true })).toHaveCount(0);
  await expect(page.getByText('In use: none')).toBeVisible();
  await expect(page.getByText(/notes come from the built-in engine until you install one/)).toBeVisible();
  expect((await list()).active).toBeNull();
  await shots(page, 'settings-ai-notes-model-none');
});

test('RECORDER_NOTES_MODEL_PATH chooses the model: the page says so', async ({ browser }) => {
  const chosen = await Service.start({ env: { RECORDER_NOTES_MODEL_PATH: NOTES_TEST_MODEL } });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await chosen.signIn(page);
    await page.goto(chosen.url('/settings/ai'));
    await settled(page);
    await expect(page.getByText('The environment variable RECORDER_NOTES_MODEL_PATH chooses the model; the choice below is ignored.')).toBeVisible();
    const active = (await chosen.get<NotesModelList>('/ui/notes-models')).active;
    expect(active?.path).toBe(NOTES_TEST_MODEL);
    await expect(page.getByText(`In use: ${active!.name}`)).toBeVisible();
  } finally {
    await context.close();
    await chosen.stop();
  }
});

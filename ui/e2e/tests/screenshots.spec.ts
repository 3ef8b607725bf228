import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service, type MeetingList } from '../helpers/service';
import { tour } from '../helpers/tour';

// Every page at 1280×800 and 400×800, light and dark, as
// target/ui-screenshots/<page>-<width>-<scheme>.png (for people to look at).
// The meeting is a 900-segment one.

const WIDTHS = [1280, 400];
const SCHEMES = ['light', 'dark'] as const;

let service: Service;
let folder: string;
let shared: BrowserContext;
let signedIn: Page;

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-shots-'));
  const { mic, sys } = callFiles(folder);
  service = await Service.start({ seed: { meetings: 8, segments: 900 }, model: true, audio: { mic, sys, speed: 2 } });
  shared = await browser.newContext();
  signedIn = await shared.newPage();
  await service.signIn(signedIn);
});

test.afterAll(async () => {
  await shared?.close();
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('the meeting shot is of a 900-segment meeting', async () => {
  const id = (await service.get<MeetingList>('/ui/meetings?limit=1')).meetings[0].id;
  const transcript = await service.get<{ segments: unknown[] }>(`/ui/meetings/${id}/transcript`);
  expect(transcript.segments).toHaveLength(900);
});

for (const state of tour({ recording: true })) {
  test(`screenshots: ${state.name}`, async ({ browser }) => {
    const context = state.signedOut ? await browser.newContext() : null;
    const page = context ? await context.newPage() : signedIn;
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await state.open(page, service);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.waitForTimeout(150);
          const file = path.join(SCREENSHOT_DIR, `${state.name}-${width}-${scheme}.png`);
          await page.screenshot({ path: file, fullPage: !state.tall, animations: 'disabled' });
          expect(fs.statSync(file).size).toBeGreaterThan(1000);
        }
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 800 });
      await state.close?.(page, service);
      await context?.close();
    }
  });
}

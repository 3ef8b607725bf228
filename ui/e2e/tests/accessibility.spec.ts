import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from '../helpers/fixtures';
import { callFiles } from '../helpers/audio';
import { Service } from '../helpers/service';
import { tour } from '../helpers/tour';

// axe-core on every page state: no violation of impact serious or critical;
// the others are printed (and attached to the report).

let service: Service;
let folder: string;
let shared: BrowserContext;
let signedIn: Page;

test.beforeAll(async ({ browser }) => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-e2e-axe-'));
  const { mic, sys } = callFiles(folder);
  service = await Service.start({ seed: { meetings: 8, segments: 120 }, model: true, audio: { mic, sys, speed: 2 } });
  // One signed-in page for the whole walk (a sign-in per state costs seconds).
  shared = await browser.newContext();
  signedIn = await shared.newPage();
  await service.signIn(signedIn);
});

test.afterAll(async () => {
  await shared?.close();
  await service?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

for (const state of tour({ recording: true })) {
  test(`axe: ${state.name}`, async ({ browser }, testInfo) => {
    const context = state.signedOut ? await browser.newContext() : null;
    const target = context ? await context.newPage() : signedIn;
    try {
      await state.open(target, service);
      for (const scheme of ['light', 'dark'] as const) {
        await target.emulateMedia({ colorScheme: scheme });
        const results = await new AxeBuilder({ page: target }).analyze();
        const line = (v: (typeof results.violations)[number]) =>
          `[${v.impact}] ${v.id}: ${v.help} (${v.nodes.length}×: ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(' | ')})`;
        const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const minor = results.violations.filter((v) => !severe.includes(v));
        if (minor.length) console.log(`axe ${state.name} (${scheme}) minor:\n  ${minor.map(line).join('\n  ')}`);
        await testInfo.attach(`axe-${state.name}-${scheme}.json`, {
          body: JSON.stringify(results.violations, null, 2),
          contentType: 'application/json',
        });
        expect.soft(severe.map(line), `serious/critical axe violations on ${state.name} (${scheme})`).toEqual([]);
      }
    } finally {
      await state.close?.(target, service);
      await context?.close();
    }
  });
}

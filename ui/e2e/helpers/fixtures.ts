/**
 * The shared `test`: every page a test opens in its context has each request
 * recorded, and the test fails if any left loopback (CONTRACT §9: no CDN, web
 * font, analytics or map tile). tests/network.spec.ts walks every page for it.
 */
import { test as base, expect, type Page, type Request } from '@playwright/test';

export { expect };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True for a request that stays on this computer. data: and blob: are in-page, never network. */
export function isLoopback(url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return true;
  return LOOPBACK.has(parsed.hostname);
}

export const test = base.extend<{ requests: string[] }>({
  requests: [
    async ({ context }, use) => {
      const seen: string[] = [];
      const record = (request: Request) => seen.push(request.url());
      context.on('request', record);
      await use(seen);
      context.off('request', record);
      const foreign = seen.filter((url) => !isLoopback(url));
      expect(foreign, 'requests that left loopback (CONTRACT §9)').toEqual([]);
    },
    { auto: true },
  ],
});

/** Waits until the app has left its "Loading…" state on the page it shows. */
export async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 15_000 });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

import { test, expect } from '../helpers/fixtures';
import { Service } from '../helpers/service';
import { tour } from '../helpers/tour';

// CONTRACT §9: nothing the UI loads or calls leaves loopback. Every request of
// every page (documents, scripts, styles, images, fonts, XHR/fetch, SSE) is
// recorded; any whose host is not 127.0.0.1/localhost fails the test.

let service: Service;

test.beforeAll(async () => {
  service = await Service.start({ seed: { meetings: 5, segments: 60 } });
});

test.afterAll(async () => {
  await service?.stop();
});

test('no page makes a request outside loopback', async ({ browser }) => {
  const context = await browser.newContext();
  const seen: { page: string; url: string; type: string }[] = [];
  let current = '';
  context.on('request', (request) => seen.push({ page: current, url: request.url(), type: request.resourceType() }));
  const page = await context.newPage();
  try {
    for (const state of tour({ recording: false })) {
      current = state.name;
      if (!state.signedOut && current !== 'signin' && !(await context.cookies()).length) await service.signIn(page);
      await state.open(page, service);
      await page.waitForTimeout(500);
      await state.close?.(page, service);
    }
  } finally {
    await context.close();
  }
  const hosts = [...new Set(seen.map((r) => new URL(r.url).protocol + '//' + new URL(r.url).host))];
  console.log(`network: ${seen.length} requests on ${new Set(seen.map((r) => r.page)).size} pages; origins: ${hosts.join(', ')}`);
  const inPage = seen.filter((r) => /^(data|blob):/.test(r.url));
  if (inPage.length) console.log('data:/blob: requests:', inPage.map((r) => `${r.page}: ${r.url.slice(0, 60)}`));
  const foreign = seen.filter((r) => {
    const url = new URL(r.url);
    if (url.protocol === 'data:' || url.protocol === 'blob:') return false;
    return !['127.0.0.1', 'localhost'].includes(url.hostname) || !['http:', 'ws:'].includes(url.protocol);
  });
  expect(foreign, 'requests that left loopback').toEqual([]);
  expect(seen.length).toBeGreaterThan(20);
});

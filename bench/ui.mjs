// The app's speed on seeded meetings, in Debian's Chromium (headless): time to
// the first meaningful paint of the library and of a 900-segment meeting, cold
// (an empty browser cache) and warm (the same tab again), the size of the
// JavaScript and CSS (raw and gzip), and the page's memory after scrolling the
// whole library. Prints a Markdown table (and writes it to $BENCH_OUT).
//
// "Meaningful paint": performance.now() (from the navigation's start) at the
// first animation frame after the first meeting row (library) or the last
// transcript line (meeting view, `[data-i=N-1]`) is in the document, measured in the page by a
// MutationObserver, so the test's own round trips are not counted. Run by
// bench/ui.sh, which builds, seeds and starts the service.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(join(root, 'ui/e2e/package.json'));
const { chromium } = require('playwright-core');

const base = process.env.BENCH_BASE;
const uiToken = process.env.BENCH_UI_TOKEN;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const out = process.env.BENCH_OUT;
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const LIBRARY_READY = 'li.meeting';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function loginLink() {
  const response = await fetch(`${base}/ui/login-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${uiToken}` },
  });
  if (!response.ok) throw new Error(`login link: ${response.status}`);
  return (await response.json()).url;
}

/** Records when `selector` first matches, one frame later (painted). */
function watchFor(selector) {
  window.__ready = null;
  const seen = () => {
    if (window.__ready === null && document.querySelector(selector)) {
      window.__ready = -1;
      requestAnimationFrame(() => { window.__ready = performance.now(); });
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
}

async function signedInContext(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.request.get(await loginLink(), { maxRedirects: 0 });
  return context;
}

async function timeTo(page, url, selector) {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => typeof window.__ready === 'number' && window.__ready > 0, null, { timeout: 60_000 });
  const ready = await page.evaluate(() => window.__ready);
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  );
  return { ready, fcp };
}

async function paints(browser, url, selector) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < runs; i++) {
    const context = await signedInContext(browser);
    await context.addInitScript(watchFor, selector);
    const page = await context.newPage();
    cold.push(await timeTo(page, url, selector));
    warm.push(await timeTo(page, url, selector));
    await context.close();
  }
  const pick = (list, key) => median(list.map((r) => r[key]));
  return {
    cold: pick(cold, 'ready'), warm: pick(warm, 'ready'),
    coldFcp: pick(cold, 'fcp'), warmFcp: pick(warm, 'fcp'),
  };
}

async function scrolledMemory(browser, total) {
  const context = await signedInContext(browser);
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector(LIBRARY_READY);
  const started = Date.now();
  let rows = 0;
  while (rows < total && Date.now() - started < 300_000) {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const more = page.getByRole('button', { name: /load more/i });
    if (await more.isVisible().catch(() => false)) await more.click().catch(() => {});
    await page.waitForTimeout(150);
    rows = await page.locator(LIBRARY_READY).count();
  }
  const session = await context.newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  await session.send('Performance.enable');
  const { metrics } = await session.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
  await context.close();
  return { rows, heapMiB: metric('JSHeapUsedSize') / 1048576, nodes: metric('Nodes') };
}

function assetSizes() {
  const folder = join(root, 'ui/dist/assets');
  const sizes = { js: [0, 0], css: [0, 0] };
  for (const name of readdirSync(folder)) {
    const kind = name.endsWith('.js') ? 'js' : name.endsWith('.css') ? 'css' : null;
    if (!kind) continue;
    const bytes = readFileSync(join(folder, name));
    sizes[kind][0] += statSync(join(folder, name)).size;
    sizes[kind][1] += gzipSync(bytes, { level: 9 }).length;
  }
  return sizes;
}

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
const list = await (await fetch(`${base}/ui/meetings?limit=1`, { headers: { authorization: `Bearer ${uiToken}` } })).json();
const total = list.total;
const meetingId = list.meetings[0].id;
const segments = (await (await fetch(`${base}/ui/meetings/${meetingId}/transcript`, { headers: { authorization: `Bearer ${uiToken}` } })).json()).segments.length;
const library = await paints(browser, `${base}/`, LIBRARY_READY);
// The meeting view is ready when its last transcript line is in the page.
const meeting = await paints(browser, `${base}/meetings/${meetingId}`, `[data-i="${segments - 1}"]`);
const memory = await scrolledMemory(browser, total);
await browser.close();
const sizes = assetSizes();
const kib = (n) => (n / 1024).toFixed(1);
const ms = (n) => n.toFixed(0);
const table = [
  `## The app (${total} meetings; the meeting view has ${segments} segments; median of ${runs} runs; Chromium headless, 1280×800)`,
  '',
  '| measure | cold | warm | target |',
  '|---|---|---|---|',
  `| library \`/\`: first meeting row painted (ms) | ${ms(library.cold)} | ${ms(library.warm)} | < 500 |`,
  `| library: first contentful paint (ms) | ${ms(library.coldFcp)} | ${ms(library.warmFcp)} | |`,
  `| meeting view: all ${segments} transcript lines painted (ms) | ${ms(meeting.cold)} | ${ms(meeting.warm)} | < 800 |`,
  `| meeting view: first contentful paint (ms) | ${ms(meeting.coldFcp)} | ${ms(meeting.warmFcp)} | |`,
  '',
  '| size | raw KiB | gzip KiB | target |',
  '|---|---|---|---|',
  `| JavaScript | ${kib(sizes.js[0])} | ${kib(sizes.js[1])} | < 150 gzip |`,
  `| CSS | ${kib(sizes.css[0])} | ${kib(sizes.css[1])} | |`,
  '',
  `| after scrolling the whole library | rows | JS heap MiB | DOM nodes |`,
  '|---|---|---|---|',
  `| library | ${memory.rows} of ${total} | ${memory.heapMiB.toFixed(1)} | ${memory.nodes} |`,
  '',
].join('\n');
console.log(table);
if (out) writeFileSync(out, table);

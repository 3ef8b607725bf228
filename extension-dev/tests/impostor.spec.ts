/**
 * Clients verify the service (CONTRACT §12): while the service is down another
 * local program may hold its port. The extension, paired with the real service,
 * asks whatever listens there to prove it knows the token (a challenge that
 * carries a fresh nonce and a hash of the token's hash) and sends the token
 * only to the service that can: the impostor hears challenges and nothing
 * else, the badge shows "!" and the popup says it is not this Recorder.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { badge, openPopup, shoot, stored } from './helpers/browser';
import { Impostor } from './helpers/impostor';
import { openMeeting, pause, PRODUCTS, serveMeetings, setState } from './helpers/meetings';
import { pair, world, type World } from './helpers/setup';

const IDENTITY = '/.well-known/recorder-identity';
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

let w: World;
let impostor: Impostor | null = null;
test.beforeEach(async () => {
  w = await world();
});
test.afterEach(async () => {
  await impostor?.stop();
  impostor = null;
  await w?.close();
});

/** Waits until the extension has sent nothing for `ms` (at most 20 s). */
async function quiet(world: World, ms: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen = world.proxy.log.length;
  let since = Date.now();
  while (Date.now() - since < ms && Date.now() < deadline) {
    await pause(100);
    if (world.proxy.log.length !== seen) [seen, since] = [world.proxy.log.length, Date.now()];
  }
}

test('an impostor on the service port gets no token: "!" and "not this Recorder"; the real service back, all is well', async () => {
  test.setTimeout(120_000);
  const popup = await pair(w);
  const token = String((await stored(w.browser)).token);
  expect(token.length).toBeGreaterThan(20);
  const port = w.service.port;
  const base = new URL(w.service.base);

  // Paired, the extension proved the service before its first request with the token.
  const toBase = w.proxy.log.filter((e) => e.method !== 'CONNECT' && new URL(e.url).host === base.host);
  const firstWithToken = toBase.findIndex((e) => e.authorization !== null);
  expect(firstWithToken).toBeGreaterThan(0);
  expect(toBase.slice(0, firstWithToken).some((e) => new URL(e.url).pathname === IDENTITY)).toBe(true);

  // The service stops; at once another program takes its port. (Killed while
  // the extension is quiet: a request whose proof the real service answered
  // a moment before the kill would go to the impostor, a window of a few
  // milliseconds that a person cannot aim at, but a busy test machine can.)
  await quiet(w, 1_500);
  await w.service.kill();
  impostor = await Impostor.start(port);
  const since = Date.now();

  // At once a call goes live: the prompt would carry the token, seconds after
  // the service last proved itself (pairing). It proves itself again first.
  await serveMeetings(w.browser.context, 'synthetic');
  const tab = await openMeeting(w.browser.context, PRODUCTS[0]);
  await setState(tab, 'live');
  await expect.poll(() => impostor!.requests(IDENTITY).length).toBeGreaterThan(0);
  await expect.poll(() => badge(w.browser)).toBe('!');
  await expect(popup.getByText('Not this Recorder', { exact: true })).toBeVisible();
  // The detector's first retries (1 s, 2 s) meet the impostor too.
  await pause(4_000);

  // A health check (opening the popup asks for one) meets the impostor.
  const challengesBefore = impostor.requests(IDENTITY).length;
  const again = await openPopup(w.browser);
  await expect(again.getByText('Not this Recorder', { exact: true })).toBeVisible();
  await expect(again.locator('#status-detail')).toContainText(`Something else is listening on port ${port}; it is not this Recorder.`);
  // The meeting's own line says why the app was not asked.
  await expect(again.getByText(/Something else answers on the app’s port, not Recorder: the meeting was not sent to it/)).toBeVisible();
  expect(impostor.requests(IDENTITY).length).toBeGreaterThan(challengesBefore);
  expect(await badge(w.browser)).toBe('!');
  await shoot(again, 'popup-impostor');

  // Any other program (a plain 404 web server): the same.
  impostor.manner = 'not-found';
  await again.reload();
  await expect(again.getByText('Not this Recorder', { exact: true })).toBeVisible();
  expect(await badge(w.browser)).toBe('!');

  // What the impostor heard: challenges only, each with a fresh nonce and the
  // key id (a hash of the token's hash), never the token.
  const heard = impostor.heard;
  expect(heard.length).toBeGreaterThanOrEqual(3);
  const keyId = sha256(sha256(Buffer.from(token, 'utf8'))).subarray(0, 16).toString('hex');
  const nonces = new Set<string>();
  for (const request of heard) {
    const url = new URL(request.url, base);
    expect(`${request.method} ${url.pathname}`).toBe(`GET ${IDENTITY}`);
    expect(request.headers.authorization, request.url).toBeUndefined();
    expect(request.url).not.toContain(token);
    expect(request.body).not.toContain(token);
    for (const [name, value] of Object.entries(request.headers)) expect(String(value), name).not.toContain(token);
    expect(url.searchParams.get('key')).toBe(keyId);
    const nonce = url.searchParams.get('nonce') ?? '';
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    nonces.add(nonce);
  }
  expect(nonces.size).toBe(heard.length);
  // The same seen from outside the browser (the logging proxy), and the token kept.
  for (const entry of w.proxy.log.filter((e) => e.at >= since)) {
    expect(entry.authorization, entry.url).toBeNull();
    expect(entry.url).not.toContain(token);
    expect(entry.body).not.toContain(token);
  }
  expect((await stored(w.browser)).token).toBe(token);

  // The impostor goes, the real service comes back on its port: all is well.
  await impostor.stop();
  impostor = null;
  await w.service.restart();
  await again.reload();
  await expect(again.getByText('Ready, not recording')).toBeVisible();
  await expect.poll(() => badge(w.browser)).toBe('');
});

test('a revoked pairing: the challenge itself is refused (401), the token is not sent, the form shows', async () => {
  await pair(w);
  const { pairings } = await w.service.get<{ pairings: { id: string }[] }>('/ui/pairings');
  // The revocation closes the worker's event stream, and the worker may
  // challenge the service again before the DELETE's answer reaches us: the
  // challenge is looked for from before the DELETE, the token from after it.
  const revoking = Date.now();
  const revoked = await w.service.call('DELETE', `/ui/pairings/${pairings[0].id}`);
  expect(revoked.status).toBeLessThan(300);
  const since = Date.now();
  const popup = await openPopup(w.browser);
  await expect(popup.getByLabel('Pairing code')).toBeVisible();
  await expect.poll(() => badge(w.browser)).toBe('PAIR');
  expect((await stored(w.browser)).token).toBeUndefined();
  const requests = w.proxy.log.filter((e) => e.method !== 'CONNECT');
  const fromRevoking = requests.filter((e) => e.at >= revoking).map((e) => new URL(e.url).pathname);
  expect(fromRevoking).toContain(IDENTITY);
  for (const entry of requests.filter((e) => e.at >= since)) expect(entry.authorization, entry.url).toBeNull();
});

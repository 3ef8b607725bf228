// Every request this extension makes goes through here, to the base URL and
// nowhere else; the bearer token is attached only to those requests, and only
// once the listener at the base URL has proved it is the Recorder service that
// issued the token (CONTRACT §12): while the service is down another program
// may hold its port, and must learn nothing.

import { expectedProof, keyId, newNonce, portOf, sameProof } from './identity.js';

/**
 * @typedef {{ ok: true, status: number, body: any }} Answered
 * @typedef {{ ok: false, kind: 'unreachable' | 'unauthorized' | 'refused' | 'impostor', status: number, code: string, message: string }} Failed
 * @typedef {Answered | Failed} Reply
 */

const TIMEOUT_MS = 8000;
export const IDENTITY_PATH = '/.well-known/recorder-identity';

// Every request that carries the token is preceded by its own proof: the
// service may stop at any moment and something else take its port, so a proof
// says nothing about the next request. Requests made together share one
// challenge (it is awaited by all of them), and the event stream, which the
// worker opens right after a health check or a prompt, reuses that request's
// proof if it is at most STREAM_REUSE_MS old. Proofs live in memory only, for
// one base URL and one token; any network error forgets them; a restarted
// worker starts with none.
const STREAM_REUSE_MS = 10_000;

/** @type {{ baseUrl: string, token: string, at: number } | null} */
let verified = null;
/** @type {{ baseUrl: string, token: string, reply: Promise<Failed | null> } | null} */
let verifying = null;

/** Forgets the last proof (a network error, a new base URL, a forgotten token). */
export function forgetVerification() {
  verified = null;
  verifying = null;
}

/**
 * Proves the listener at the base URL is the service that knows this token,
 * before the token goes there. Resolves to null when it is, else to the
 * failure to report instead of the request: `unreachable` (nothing answers),
 * `unauthorized` (the service no longer knows the token: a revoked pairing),
 * `impostor` (something else answers).
 * @param {import('./config.js').Config & { token: string }} config
 * @param {{ maxAgeMs?: number }} [options] how old a proof may be reused (default: none; a
 *   challenge under way is shared all the same)
 * @returns {Promise<Failed | null>}
 */
export async function verifyService(config, options = {}) {
  const maxAgeMs = options.maxAgeMs ?? 0;
  const same = (/** @type {{ baseUrl: string, token: string } | null} */ entry) =>
    entry !== null && entry.baseUrl === config.baseUrl && entry.token === config.token;
  if (same(verified) && Date.now() - /** @type {{ at: number }} */ (verified).at < maxAgeMs) return null;
  if (verifying && same(verifying)) return verifying.reply;
  const attempt = { baseUrl: config.baseUrl, token: config.token, reply: challenge(config) };
  verifying = attempt;
  const reply = await attempt.reply;
  if (verifying === attempt) {
    verifying = null;
    verified = reply === null ? { baseUrl: config.baseUrl, token: config.token, at: Date.now() } : null;
  }
  return reply;
}

/**
 * One challenge: a fresh nonce and the token's key id (a hash of its hash),
 * never the token itself.
 * @param {import('./config.js').Config & { token: string }} config
 * @returns {Promise<Failed | null>}
 */
async function challenge(config) {
  const nonce = newNonce();
  const port = portOf(config.baseUrl);
  const query = new URLSearchParams({ nonce, key: await keyId(config.token) });
  let response;
  try {
    response = await fetch(`${config.baseUrl}${IDENTITY_PATH}?${query}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
      // A redirect is an answer too, and not the service's: seen, not followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    forgetVerification();
    return unreachable(config);
  }
  const parsed = await response.json().catch(() => null);
  if (response.status === 401 && parsed?.error?.code === 'unauthorized') {
    return {
      ok: false,
      kind: 'unauthorized',
      status: 401,
      code: 'unauthorized',
      message: typeof parsed.error.message === 'string' ? parsed.error.message : 'the app no longer knows this pairing',
    };
  }
  const genuine =
    response.status === 200 &&
    parsed !== null &&
    typeof parsed === 'object' &&
    parsed.service === 'recorder' &&
    sameProof(parsed.proof, await expectedProof(config.token, port, nonce));
  return genuine ? null : impostor(config);
}

/** @param {import('./config.js').Config} config @returns {Failed} */
function impostor(config) {
  const port = portOf(config.baseUrl);
  return {
    ok: false,
    kind: 'impostor',
    status: 0,
    code: 'not_recorder',
    message: `Something else is listening on port ${port}; it is not this Recorder. The pairing token was not sent to it.`,
  };
}

/**
 * @param {import('./config.js').Config} config
 * @param {'GET' | 'POST'} method
 * @param {`/v1/${string}`} path
 * @param {object | undefined} body
 * @param {{ withToken?: boolean }} [options]
 * @returns {Promise<Reply>}
 */
export async function call(config, method, path, body, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (options.withToken !== false && config.token) {
    const failed = await verifyService({ ...config, token: config.token });
    if (failed) return failed;
    headers.Authorization = `Bearer ${config.token}`;
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(config.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    forgetVerification();
    return unreachable(config);
  }
  const parsed = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, body: parsed };
  const error = parsed?.error ?? {};
  return {
    ok: false,
    kind: response.status === 401 ? 'unauthorized' : 'refused',
    status: response.status,
    code: typeof error.code === 'string' ? error.code : `http_${response.status}`,
    message: typeof error.message === 'string' ? error.message : `the service answered ${response.status}`,
  };
}

/** @param {import('./config.js').Config} config @returns {Failed} */
function unreachable(config) {
  return {
    ok: false,
    kind: 'unreachable',
    status: 0,
    code: 'unreachable',
    message: `Recorder is not running at ${config.baseUrl}. Start it with \`recorder serve\`.`,
  };
}

/** @param {import('./config.js').Config} config */
export const health = (config) => call(config, 'GET', '/v1/health', undefined);

/**
 * Pairing sends no token, so there is nothing yet to key a proof on (the
 * challenge names the token): it goes as it is, unverified. It happens only
 * when the person types the code the app shows on screen, that is while the
 * app itself holds the port. Every request after it proves the service first.
 * @param {import('./config.js').Config} config @param {string} code
 */
export const pair = (config, code) => call(config, 'POST', '/v1/pair', { code }, { withToken: false });

/**
 * @param {import('./config.js').Config} config
 * @param {{ source_app: string, title: string, url: string, attendees: { name: string }[] }} meeting
 */
export const prompt = (config, meeting) => call(config, 'POST', '/v1/recording/prompt', meeting);

/** @param {import('./config.js').Config} config @param {string | undefined} label */
export const marker = (config, label) =>
  call(config, 'POST', '/v1/recording/marker', label ? { label } : {});

/**
 * A call the extension prompted for ended. The app answers whether the
 * recording in progress came from it and now stops (`{ stopping, stops_at }`).
 * @param {import('./config.js').Config} config
 * @param {{ source_app: string, url: string }} what
 */
export const ended = (config, what) => call(config, 'POST', '/v1/recording/ended', { source_app: what.source_app, url: what.url });

/**
 * The person's microphone in the recording: silence while `muted`.
 * @param {import('./config.js').Config} config @param {boolean} muted
 */
export const mute = (config, muted) => call(config, 'POST', '/v1/recording/mute', { muted });

/**
 * Opens `/v1/events` once the service has proved itself; the caller reads the
 * body. Resolves to the failure instead when it has not (or there is no token).
 * @param {import('./config.js').Config} config
 * @param {string | null} lastEventId
 * @param {AbortSignal} signal
 * @returns {Promise<Response | Failed>}
 */
export async function openEvents(config, lastEventId, signal) {
  if (!config.token) return { ok: false, kind: 'unauthorized', status: 401, code: 'unauthorized', message: 'not paired' };
  const failed = await verifyService({ ...config, token: config.token }, { maxAgeMs: STREAM_REUSE_MS });
  if (failed) return failed;
  /** @type {Record<string, string>} */
  const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${config.token}` };
  if (lastEventId) headers['Last-Event-ID'] = lastEventId;
  try {
    return await fetch(`${config.baseUrl}/v1/events`, {
      headers,
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
      signal,
    });
  } catch (error) {
    if (!signal.aborted) forgetVerification();
    throw error;
  }
}

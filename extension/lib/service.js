// Every request this extension makes goes through here, to the base URL and
// nowhere else; the bearer token is attached only to those requests.

/**
 * @typedef {{ ok: true, status: number, body: any }} Answered
 * @typedef {{ ok: false, kind: 'unreachable' | 'unauthorized' | 'refused', status: number, code: string, message: string }} Failed
 * @typedef {Answered | Failed} Reply
 */

const TIMEOUT_MS = 8000;

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
  if (options.withToken !== false && config.token) headers.Authorization = `Bearer ${config.token}`;
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

/** @param {import('./config.js').Config} config @param {string} code */
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
 * Opens `/v1/events`; the caller reads the body.
 * @param {import('./config.js').Config} config
 * @param {string | null} lastEventId
 * @param {AbortSignal} signal
 */
export async function openEvents(config, lastEventId, signal) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${config.token}` };
  if (lastEventId) headers['Last-Event-ID'] = lastEventId;
  return fetch(`${config.baseUrl}/v1/events`, {
    headers,
    cache: 'no-store',
    credentials: 'omit',
    redirect: 'error',
    signal,
  });
}

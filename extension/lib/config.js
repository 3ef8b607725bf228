// Where the service is and the paired token: both in `storage.local`, the only
// place the token lives. The base URL may only be loopback 127.0.0.1 (the one
// host this extension has permission for), on any port.

import { ext } from './platform.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:47321';

/** @typedef {{ baseUrl: string, token: string | null }} Config */

/** @returns {Promise<Config>} */
export async function loadConfig() {
  const stored = await ext.storage.local.get(['baseUrl', 'token']);
  const baseUrl = typeof stored.baseUrl === 'string' ? stored.baseUrl : DEFAULT_BASE_URL;
  const token = typeof stored.token === 'string' && stored.token ? stored.token : null;
  return { baseUrl, token };
}

/** @param {string} token */
export async function saveToken(token) {
  await ext.storage.local.set({ token });
}

export async function forgetToken() {
  await ext.storage.local.remove('token');
}

/**
 * Checks a base URL typed by the person; returns it normalised, or throws an
 * Error whose message says what is wrong.
 * @param {string} text
 * @returns {string}
 */
export function normaliseBaseUrl(text) {
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error('That is not a URL. Use the form http://127.0.0.1:47321');
  }
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') {
    throw new Error('The service listens on this computer only: the address must start with http://127.0.0.1');
  }
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new Error('Give only the address and port, such as http://127.0.0.1:47321');
  }
  return `http://127.0.0.1:${url.port || '80'}`;
}

// The service's proof of identity (CONTRACT §12, "Clients verify the service"):
// the arithmetic only, no request (lib/service.js makes it). Plain WebCrypto,
// so the worker and the tests (Node's `crypto.subtle`) run the same code.
//
// The client sends a fresh nonce and the id of its token; the real service,
// which keeps SHA-256(token) of every paired token, answers
//   proof = base64url(HMAC-SHA256(key = SHA-256(token), "recorder-identity-v1:<port>:<nonce>"))
// A program that merely holds the port learns the key id only, a hash of that
// hash, from which it can neither recover the token nor forge the proof.

const LABEL = 'recorder-identity-v1';

/** @param {ArrayBuffer | Uint8Array} bytes @returns {string} base64url without padding */
export function base64url(bytes) {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh challenge: 32 random bytes, base64url without padding (43 characters). */
export function newNonce() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** @param {string} token @returns {Promise<ArrayBuffer>} SHA-256 of the token's UTF-8 bytes */
function tokenDigest(token) {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
}

/**
 * What the client names its token by: the first 16 bytes of
 * SHA-256(SHA-256(token)), lowercase hex (32 characters).
 * @param {string} token
 */
export async function keyId(token) {
  const outer = new Uint8Array(await crypto.subtle.digest('SHA-256', await tokenDigest(token)));
  return [...outer.subarray(0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The proof only the holder of SHA-256(token) can give for `nonce` on `port`.
 * @param {string} token
 * @param {string | number} port
 * @param {string} nonce
 */
export async function expectedProof(token, port, nonce) {
  const key = await crypto.subtle.importKey('raw', await tokenDigest(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${LABEL}:${port}:${nonce}`));
  return base64url(mac);
}

/**
 * The port a base URL connects to (the service signs the port it listens on).
 * @param {string} baseUrl
 */
export function portOf(baseUrl) {
  const url = new URL(baseUrl);
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Compares a proof with the expected one without stopping at the first
 * difference.
 * @param {unknown} given
 * @param {string} expected
 */
export function sameProof(given, expected) {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i += 1) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}

/**
 * The proof of identity's arithmetic (CONTRACT §12), as extension/lib/identity.js
 * computes it with WebCrypto, against an independent computation with Node's
 * `crypto` module (what the service does in crates/api-types/src/identity.rs),
 * and against a stand-in of the service's challenge endpoint. No browser.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { base64url, expectedProof, keyId, newNonce, portOf, sameProof } from '../../extension/lib/identity.js';

const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();
const referenceKeyId = (token: string): string => sha256(sha256(Buffer.from(token, 'utf8'))).subarray(0, 16).toString('hex');
const referenceProof = (token: string, port: number | string, nonce: string): string =>
  createHmac('sha256', sha256(Buffer.from(token, 'utf8')))
    .update(`recorder-identity-v1:${port}:${nonce}`, 'utf8')
    .digest('base64url');

test('the key id is the first 16 bytes of SHA-256(SHA-256(token)), lowercase hex', async () => {
  // Fixed value: `printf secret | sha256sum | xxd -r -p | sha256sum | cut -c1-32`.
  expect(await keyId('secret')).toBe(referenceKeyId('secret'));
  expect(await keyId('secret')).toBe('3881219d087dd9c634373fd33dfa33a2');
  for (let i = 0; i < 20; i += 1) {
    const token = randomBytes(32).toString('base64url');
    const id = await keyId(token);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(id).toBe(referenceKeyId(token));
    expect(id).not.toContain(token);
  }
  // UTF-8, not UTF-16 or Latin-1.
  expect(await keyId('tökén-✓')).toBe(referenceKeyId('tökén-✓'));
});

test('the proof is base64url(HMAC-SHA256(SHA-256(token), "recorder-identity-v1:<port>:<nonce>"))', async () => {
  for (let i = 0; i < 20; i += 1) {
    const token = randomBytes(32).toString('base64url');
    const nonce = newNonce();
    const port = 1024 + i * 997;
    const proof = await expectedProof(token, port, nonce);
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(proof).toBe(referenceProof(token, port, nonce));
    expect(await expectedProof(token, String(port), nonce)).toBe(proof);
    expect(await expectedProof(token, port + 1, nonce)).not.toBe(proof);
    expect(await expectedProof(`${token}x`, port, nonce)).not.toBe(proof);
  }
});

test('nonces are 32 fresh random bytes, base64url without padding', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i += 1) {
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(nonce, 'base64url')).toHaveLength(32);
    seen.add(nonce);
  }
  expect(seen.size).toBe(200);
  expect(base64url(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe('-__-');
});

test('ports and proof comparison', () => {
  expect(portOf('http://127.0.0.1:47321')).toBe('47321');
  expect(portOf('http://127.0.0.1:80')).toBe('80');
  expect(portOf('http://127.0.0.1')).toBe('80');
  expect(sameProof('abc', 'abc')).toBe(true);
  expect(sameProof('abd', 'abc')).toBe(false);
  expect(sameProof('ab', 'abc')).toBe(false);
  expect(sameProof(undefined, 'abc')).toBe(false);
  expect(sameProof(42, 'abc')).toBe(false);
});

test('a stand-in that holds the token hash proves itself; one that does not, cannot', async () => {
  const token = randomBytes(32).toString('base64url');
  const known = new Map([[referenceKeyId(token), sha256(Buffer.from(token, 'utf8'))]]);
  // The service's side, written from the contract: it keeps only SHA-256(token).
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const nonce = url.searchParams.get('nonce') ?? '';
    const digest = known.get(url.searchParams.get('key') ?? '');
    const port = (server.address() as AddressInfo).port;
    response.setHeader('Content-Type', 'application/json');
    if (url.pathname !== '/.well-known/recorder-identity' || !/^[A-Za-z0-9_-]{16,128}$/.test(nonce)) {
      response.writeHead(400).end('{"error":{"code":"bad_request","message":"bad nonce"}}');
    } else if (!digest) {
      response.writeHead(401).end('{"error":{"code":"unauthorized","message":"unknown key"}}');
    } else {
      const proof = createHmac('sha256', digest).update(`recorder-identity-v1:${port}:${nonce}`).digest('base64url');
      response.writeHead(200).end(JSON.stringify({ service: 'recorder', version: '0.0.0', proof }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const ask = async (forToken: string) => {
      const nonce = newNonce();
      const query = new URLSearchParams({ nonce, key: await keyId(forToken) });
      const response = await fetch(`${base}/.well-known/recorder-identity?${query}`);
      const body = (await response.json()) as { proof?: string };
      return { status: response.status, proof: body.proof, expected: await expectedProof(forToken, portOf(base), nonce) };
    };
    const good = await ask(token);
    expect(good.status).toBe(200);
    expect(sameProof(good.proof, good.expected)).toBe(true);
    const unknown = await ask(randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(401);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

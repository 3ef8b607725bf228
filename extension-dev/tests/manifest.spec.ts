/**
 * CONTRACT §10's limits, read from extension/manifest.json as it is in the
 * repository and from the extension as Chromium loaded it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTENSION, launch } from './helpers/browser';

import * as rules from '../scripts/manifest-rules.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION, 'manifest.json'), 'utf8'));

test('the manifest asks for nothing forbidden and only the loopback host', () => {
  expect(rules.manifestProblems(manifest)).toEqual([]);
  expect(manifest.manifest_version).toBe(3);
  expect(Number(manifest.minimum_chrome_version)).toBeGreaterThanOrEqual(120);
  expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*']);
  expect([...manifest.permissions].sort()).toEqual(['alarms', 'storage']);
  const matches = manifest.content_scripts.flatMap((script: { matches: string[] }) => script.matches);
  expect(new Set(matches)).toEqual(new Set(rules.MEETING_MATCHES));
  const zoom = manifest.content_scripts.find((script: { matches: string[] }) => script.matches.includes('https://app.zoom.us/wc/*'));
  expect(zoom.all_frames).toBe(true);
  for (const size of ['16', '32', '48', '128']) expect(fs.existsSync(path.join(EXTENSION, manifest.icons[size]))).toBe(true);
});

test('the check fails on each forbidden permission or host', () => {
  const broken = (change: (m: typeof manifest) => void) => {
    const copy = structuredClone(manifest);
    change(copy);
    return rules.manifestProblems(copy);
  };
  for (const permission of ['tabCapture', 'desktopCapture', 'offscreen', 'debugger', 'webRequest']) {
    expect(broken((m) => m.permissions.push(permission))).toEqual([`forbidden permission: ${permission}`]);
  }
  expect(broken((m) => m.host_permissions.push('<all_urls>'))).toEqual(['forbidden host permission: <all_urls>']);
  expect(broken((m) => m.host_permissions.push('https://example.com/*'))).toEqual(['forbidden host permission: https://example.com/*']);
  expect(broken((m) => m.content_scripts[0].matches.push('https://*/*'))).toEqual(['content script on a non-meeting host: https://*/*']);
  expect(broken((m) => delete m.minimum_chrome_version)).toEqual(['minimum_chrome_version must be stated']);
});

test('no script reads media, evaluates strings or loads code from elsewhere', () => {
  const scripts = fs
    .readdirSync(EXTENSION, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(js|html)$/.test(file));
  expect(scripts.length).toBeGreaterThan(10);
  for (const file of scripts) {
    const text = fs.readFileSync(path.join(EXTENSION, file), 'utf8');
    expect(text, file).not.toMatch(/getUserMedia|getDisplayMedia|MediaRecorder|AudioContext|captureStream|srcObject|tabCapture|desktopCapture/);
    expect(text, file).not.toMatch(/\beval\(|new Function\(|importScripts\(/);
    expect(text, file).not.toMatch(/<script[^>]+src=["']?(https?:)?\/\//);
  }
});

test('Chromium loads it with exactly those permissions', async () => {
  const browser = await launch();
  try {
    const worker = await browser.worker();
    const loaded = await worker.evaluate(async () => ({
      manifest: chrome.runtime.getManifest(),
      permissions: await chrome.permissions.getAll(),
    }));
    expect(loaded.manifest.version).toBe(manifest.version);
    expect([...(loaded.permissions.permissions ?? [])].sort()).toEqual(['alarms', 'storage']);
    expect(loaded.permissions.origins).toEqual(expect.arrayContaining(['http://127.0.0.1/*']));
    const others = (loaded.permissions.origins ?? []).filter((origin) => origin !== 'http://127.0.0.1/*');
    // Content-script hosts show up as origins too: only the meeting hosts.
    for (const origin of others as string[]) expect(rules.MEETING_MATCHES).toContain(origin);
  } finally {
    await browser.close();
  }
});

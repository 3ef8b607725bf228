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
const firefox = JSON.parse(fs.readFileSync(path.join(EXTENSION, '..', 'extension-firefox', 'manifest.json'), 'utf8'));

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

test("the Firefox manifest asks for the same, with Firefox's background and add-on id", () => {
  expect(rules.manifestProblems(firefox, 'firefox')).toEqual([]);
  expect(rules.firefoxDrift(manifest, firefox)).toEqual([]);
  expect(firefox.background).toEqual({ scripts: [manifest.background.service_worker], type: 'module' });
  expect(firefox.browser_specific_settings.gecko.id).toBe('recorder@recorder.local');
  expect(firefox.browser_specific_settings.gecko.strict_min_version).toBe('128.0');
  expect(firefox.browser_specific_settings.gecko.data_collection_permissions).toEqual({ required: ['none'] });
  expect(firefox.minimum_chrome_version).toBeUndefined();
  // Chrome's checks would pass it too, but for its background and version key.
  expect(rules.manifestProblems(firefox, 'chrome')).toEqual([
    'minimum_chrome_version must be stated',
    'Chrome runs the worker as background.service_worker',
  ]);
});

test("the Firefox checks fail on a manifest that drifts from Chrome's or lacks its own keys", () => {
  const drifted = (change: (m: typeof firefox) => void) => {
    const copy = structuredClone(firefox);
    change(copy);
    return [...rules.manifestProblems(copy, 'firefox'), ...rules.firefoxDrift(manifest, copy)];
  };
  expect(drifted((m) => m.permissions.push('tabs'))).toEqual(['extension-firefox/manifest.json differs from extension/manifest.json in "permissions"']);
  expect(drifted((m) => m.content_scripts[2].matches.pop())).toEqual([
    'extension-firefox/manifest.json differs from extension/manifest.json in "content_scripts"',
  ]);
  expect(drifted((m) => m.permissions.push('webRequest'))).toEqual([
    'forbidden permission: webRequest',
    'extension-firefox/manifest.json differs from extension/manifest.json in "permissions"',
  ]);
  expect(drifted((m) => (m.background = { service_worker: 'worker/worker.js', type: 'module' }))).toEqual([
    'Firefox runs the worker as background.scripts',
    'Firefox\'s background.scripts must be ["worker/worker.js"]',
  ]);
  expect(drifted((m) => delete m.browser_specific_settings.gecko.id)).toEqual(['browser_specific_settings.gecko.id must be recorder@recorder.local']);
  expect(drifted((m) => (m.browser_specific_settings.gecko.strict_min_version = '115.0'))).toEqual([
    'strict_min_version must be stated, at least 128.0',
  ]);
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

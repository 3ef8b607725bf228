// The Firefox build: extension/ as it is (the same files, no code of its own)
// with extension-firefox/manifest.json as its manifest, written to
// target/extension-firefox/ (what `web-ext lint` checks and the Firefox tests
// install). The Firefox manifest is checked against Chrome's first: both ask
// for the same permissions and hosts and run the same scripts.
//
// node extension-dev/scripts/firefox.mjs [--zip]
//   --zip also writes target/extension/recorder-extension-firefox-<version>.zip
//   (the upload for addons.mozilla.org).

import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { firefoxDrift, manifestProblems } from './manifest-rules.mjs';
import { EXTENSION, verify } from './verify.mjs';

const REPO = path.resolve(EXTENSION, '..');
export const FIREFOX_MANIFEST = path.join(REPO, 'extension-firefox', 'manifest.json');
export const FIREFOX_BUILD = path.join(REPO, 'target', 'extension-firefox');

/** The Firefox manifest's problems (its own and its drift from Chrome's), and the shared files. */
export function verifyFirefox() {
  const chrome = verify();
  const manifest = JSON.parse(readFileSync(FIREFOX_MANIFEST, 'utf8'));
  const problems = [...chrome.problems, ...manifestProblems(manifest, 'firefox'), ...firefoxDrift(chrome.manifest, manifest)];
  const files = chrome.files.filter((file) => file !== 'manifest.json');
  return { manifest, files, problems };
}

/** Writes target/extension-firefox/ afresh; returns what it wrote. */
export function assembleFirefox() {
  const { manifest, files, problems } = verifyFirefox();
  if (problems.length > 0) return { manifest, files, problems, out: FIREFOX_BUILD };
  rmSync(FIREFOX_BUILD, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(FIREFOX_BUILD, file);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(EXTENSION, file), target);
  }
  writeFileSync(path.join(FIREFOX_BUILD, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, files: [...files, 'manifest.json'], problems, out: FIREFOX_BUILD };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { manifest, files, problems, out } = assembleFirefox();
  if (problems.length > 0) {
    console.error(`the Firefox build is not shippable:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`${path.relative(REPO, out)}/ ${manifest.version}: ${files.length} files, Firefox manifest within CONTRACT §10`);
  if (process.argv.includes('--zip')) {
    /** @type {Record<string, [Uint8Array, { mtime: Date }]>} */
    const entries = {};
    const mtime = new Date('2026-01-01T00:00:00Z');
    for (const file of [...files].sort()) entries[file] = [readFileSync(path.join(out, file)), { mtime }];
    const zips = path.join(REPO, 'target', 'extension');
    mkdirSync(zips, { recursive: true });
    const zip = path.join(zips, `recorder-extension-firefox-${manifest.version}.zip`);
    writeFileSync(zip, zipSync(entries, { level: 9 }));
    console.log(zip);
  }
}

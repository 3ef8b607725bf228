// The Chrome Web Store upload: extension/ zipped as it is (verified first) into
// target/extension/recorder-extension-<version>.zip.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { EXTENSION, verify } from './verify.mjs';

const { manifest, files, problems } = verify();
if (problems.length > 0) {
  console.error(`not packaging, extension/ is not shippable:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
/** @type {Record<string, [Uint8Array, { mtime: Date }]>} */
const entries = {};
// A fixed date: the same sources give the same zip.
const mtime = new Date('2026-01-01T00:00:00Z');
for (const file of files.sort()) entries[file] = [readFileSync(path.join(EXTENSION, file)), { mtime }];
const out = path.resolve(EXTENSION, '..', 'target', 'extension');
mkdirSync(out, { recursive: true });
const zip = path.join(out, `recorder-extension-${manifest.version}.zip`);
writeFileSync(zip, zipSync(entries, { level: 9 }));
console.log(`${zip} (${files.length} files)`);

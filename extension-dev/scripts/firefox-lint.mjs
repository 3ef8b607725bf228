// `web-ext lint` (Mozilla's addons-linter, as addons.mozilla.org runs it) over
// the Firefox build in target/extension-firefox/. Errors fail, and so does
// every warning but the ones listed here with the reason they are harmless.
// Run scripts/extension-firefox.sh (it assembles the build first).

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIREFOX_BUILD } from './firefox.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WEB_EXT = path.join(HERE, '..', 'node_modules', 'web-ext', 'bin', 'web-ext.js');

/**
 * Warnings that do not matter, each with why.
 * @type {{ code: string, about: RegExp, why: string }[]}
 */
const ACCEPTED = [
  {
    // Firefox 140 and later show the "collects no data" consent the key
    // declares; 128–139 ignore the key (Mozilla's advice for add-ons that
    // support those versions is to state it all the same).
    code: 'KEY_FIREFOX_UNSUPPORTED_BY_MIN_VERSION',
    about: /data_coll/,
    why: 'data_collection_permissions is ignored by Firefox 128–139',
  },
  {
    code: 'KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION',
    about: /data_coll/,
    why: 'data_collection_permissions is ignored by older Firefox for Android',
  },
];

/** @param {any} entry */
const where = (entry) => `${entry.file ?? ''}${entry.line ? `:${entry.line}` : ''}`;

/** @returns {number} the exit status */
export function lint() {
  let output;
  try {
    output = execFileSync(process.execPath, [WEB_EXT, 'lint', '--source-dir', FIREFOX_BUILD, '--output', 'json', '--no-config-discovery'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Errors make web-ext exit non-zero; the report is on stdout all the same.
    output = /** @type {{ stdout?: string }} */ (error).stdout ?? '';
  }
  let report;
  try {
    report = JSON.parse(output.slice(output.indexOf('{')));
  } catch {
    console.error(`web-ext lint gave no report:\n${output}`);
    return 1;
  }
  const failing = [...report.errors];
  for (const warning of report.warnings) {
    const accepted = ACCEPTED.find((a) => a.code === warning.code && a.about.test(`${warning.message} ${warning.description}`));
    if (accepted) console.log(`web-ext lint: accepted warning ${warning.code} (${accepted.why})`);
    else failing.push(warning);
  }
  for (const notice of report.notices) console.log(`web-ext lint: notice ${notice.code} ${where(notice)}: ${notice.message}`);
  for (const entry of failing) console.error(`web-ext lint: ${entry._type} ${entry.code} ${where(entry)}: ${entry.message}\n  ${entry.description}`);
  const { errors, warnings, notices } = report.summary;
  console.log(`web-ext lint: ${errors} errors, ${warnings} warnings (${warnings - (failing.length - report.errors.length)} accepted), ${notices} notices`);
  return failing.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(lint());

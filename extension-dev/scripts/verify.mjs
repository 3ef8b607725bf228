// The extension has no build step: extension/ loads as it is. This checks that
// it is loadable and within the contract: the manifest's limits, every file the
// manifest names exists, and nothing loads code from off the package.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestProblems } from './manifest-rules.mjs';

export const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'extension');

/** @returns {string[]} every file of the package, relative to it */
export function packageFiles(folder = EXTENSION, prefix = '') {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? packageFiles(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

function referencedFiles(manifest) {
  return [
    ...Object.values(manifest.icons ?? {}),
    ...Object.values(manifest.action?.default_icon ?? {}),
    manifest.action?.default_popup,
    manifest.options_ui?.page,
    manifest.background?.service_worker,
    ...(manifest.content_scripts ?? []).flatMap((script) => [...(script.js ?? []), ...(script.css ?? [])]),
  ].filter(Boolean);
}

function remoteCode(file, text) {
  const problems = [];
  if (file.endsWith('.html') && /<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:)?\/\//i.test(text)) {
    problems.push(`${file} loads something from off the package`);
  }
  if (file.endsWith('.js') && /\bimport\s*(\(|[^;]*from\s*)["'](https?:)?\/\//.test(text)) {
    problems.push(`${file} imports code from a URL`);
  }
  if (file.endsWith('.css') && /@import|url\(\s*["']?(https?:)?\/\//i.test(text)) {
    problems.push(`${file} loads a style or font from off the package`);
  }
  return problems;
}

export function verify() {
  const manifest = JSON.parse(readFileSync(path.join(EXTENSION, 'manifest.json'), 'utf8'));
  const problems = manifestProblems(manifest);
  for (const file of referencedFiles(manifest)) {
    if (!existsSync(path.join(EXTENSION, file))) problems.push(`manifest names a missing file: ${file}`);
  }
  const files = packageFiles();
  for (const file of files) {
    if (/(^|\/)_/.test(file)) problems.push(`Chrome refuses names starting with "_": ${file}`);
    if (/\.(js|html|css)$/.test(file)) problems.push(...remoteCode(file, readFileSync(path.join(EXTENSION, file), 'utf8')));
  }
  return { manifest, files, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { manifest, files, problems } = verify();
  if (problems.length > 0) {
    console.error(`extension/ is not shippable:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`extension/ ${manifest.version}: ${files.length} files, manifest within CONTRACT §10, loadable as it is`);
}

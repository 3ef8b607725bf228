// CONTRACT §10's limits on the extension, as code: the verify script and the
// manifest test both apply them to extension/manifest.json as it is.

export const FORBIDDEN_PERMISSIONS = [
  'tabCapture',
  'desktopCapture',
  'offscreen',
  'debugger',
  'webRequest',
  'webRequestBlocking',
  'webRequestAuthProvider',
  'declarativeNetRequest',
  'proxy',
  'cookies',
  'history',
  'scripting',
  'pageCapture',
  'nativeMessaging',
  '<all_urls>',
];
export const ALLOWED_HOSTS = ['http://127.0.0.1/*'];
export const MEETING_MATCHES = [
  'https://meet.google.com/*',
  'https://app.zoom.us/wc/*',
  'https://*.zoom.us/wc/*',
  'https://teams.microsoft.com/*',
  'https://teams.live.com/*',
  'https://teams.cloud.microsoft/*',
];

/** The Firefox build's add-on id (extension-firefox/manifest.json). */
export const GECKO_ID = 'recorder@recorder.local';
/** Firefox ESR 128: MV3 host permissions granted at install, storage.session, module backgrounds. */
export const GECKO_MIN_VERSION = 128;

/**
 * Every way the manifest breaks the contract, as sentences; empty when none.
 * `browser` says which build it is: Chrome's (extension/manifest.json) or
 * Firefox's (extension-firefox/manifest.json).
 * @param {any} manifest
 * @param {'chrome' | 'firefox'} [browser]
 * @returns {string[]}
 */
export function manifestProblems(manifest, browser = 'chrome') {
  const problems = [];
  if (manifest.manifest_version !== 3) problems.push('manifest_version must be 3');
  if (browser === 'chrome') {
    if (!/^\d+$/.test(manifest.minimum_chrome_version ?? '')) problems.push('minimum_chrome_version must be stated');
    if (!manifest.background?.service_worker) problems.push('Chrome runs the worker as background.service_worker');
  } else {
    const gecko = manifest.browser_specific_settings?.gecko ?? {};
    if (gecko.id !== GECKO_ID) problems.push(`browser_specific_settings.gecko.id must be ${GECKO_ID}`);
    const min = /^(\d+)\.\d+$/.exec(gecko.strict_min_version ?? '');
    if (!min || Number(min[1]) < GECKO_MIN_VERSION) problems.push(`strict_min_version must be stated, at least ${GECKO_MIN_VERSION}.0`);
    if (manifest.background?.service_worker || !Array.isArray(manifest.background?.scripts)) {
      problems.push('Firefox runs the worker as background.scripts');
    }
    if (manifest.minimum_chrome_version) problems.push('minimum_chrome_version is for Chrome only');
  }
  const permissions = [...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? [])];
  for (const permission of permissions) {
    if (FORBIDDEN_PERMISSIONS.includes(permission)) problems.push(`forbidden permission: ${permission}`);
  }
  const hosts = [...(manifest.host_permissions ?? []), ...(manifest.optional_host_permissions ?? [])];
  for (const host of hosts) {
    if (!ALLOWED_HOSTS.includes(host)) problems.push(`forbidden host permission: ${host}`);
  }
  for (const script of manifest.content_scripts ?? []) {
    for (const match of script.matches ?? []) {
      if (!MEETING_MATCHES.includes(match)) problems.push(`content script on a non-meeting host: ${match}`);
    }
    if (script.world === 'MAIN') problems.push('content scripts run in the isolated world only');
  }
  if (manifest.externally_connectable) problems.push('no web page may connect to the extension');
  if (manifest.web_accessible_resources) problems.push('no web-accessible resources: pages must not see the extension');
  const csp = manifest.content_security_policy?.extension_pages ?? '';
  if (!/connect-src http:\/\/127\.0\.0\.1:\*/.test(csp)) problems.push('CSP must limit connect-src to http://127.0.0.1:*');
  if (/unsafe-eval|unsafe-inline|https?:\/\/(?!127\.0\.0\.1)/.test(csp)) problems.push(`CSP allows code or hosts from elsewhere: ${csp}`);
  return problems;
}

/**
 * Where the Firefox manifest says something other than Chrome's beyond what
 * must differ (the background, the browser's own keys): the two builds share
 * every file, so they must ask for the same things and run the same scripts.
 * @param {any} chrome
 * @param {any} firefox
 * @returns {string[]}
 */
export function firefoxDrift(chrome, firefox) {
  const problems = [];
  const own = { chrome: ['minimum_chrome_version', 'background'], firefox: ['browser_specific_settings', 'background'] };
  const keys = new Set([...Object.keys(chrome), ...Object.keys(firefox)]);
  for (const key of keys) {
    if (own.chrome.includes(key) || own.firefox.includes(key)) continue;
    if (JSON.stringify(chrome[key]) !== JSON.stringify(firefox[key])) problems.push(`extension-firefox/manifest.json differs from extension/manifest.json in "${key}"`);
  }
  const worker = chrome.background?.service_worker;
  if (JSON.stringify(firefox.background?.scripts) !== JSON.stringify([worker])) problems.push(`Firefox's background.scripts must be ["${worker}"]`);
  if ((firefox.background?.type ?? 'classic') !== (chrome.background?.type ?? 'classic')) problems.push('the background type (module) must match');
  return problems;
}

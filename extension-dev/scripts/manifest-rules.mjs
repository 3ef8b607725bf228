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
];

/**
 * Every way the manifest breaks the contract, as sentences; empty when none.
 * @param {any} manifest
 * @returns {string[]}
 */
export function manifestProblems(manifest) {
  const problems = [];
  if (manifest.manifest_version !== 3) problems.push('manifest_version must be 3');
  if (!/^\d+$/.test(manifest.minimum_chrome_version ?? '')) problems.push('minimum_chrome_version must be stated');
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

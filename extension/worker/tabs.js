// What each tab's detector last reported, for the popup's "Details". A Zoom
// tab has two detectors (the page and its `#webclient` frame), kept apart.

import { ext } from '../lib/platform.js';

/** @param {number} tabId */
const keyOf = (tabId) => `tab:${tabId}`;

/** @param {number} tabId @returns {Promise<Record<string, any>>} */
export async function tabStatuses(tabId) {
  const key = keyOf(tabId);
  return (await ext.storage.session.get(key))[key] ?? {};
}

/** @param {number} tabId @param {number} frameId @param {any} status */
export async function saveTabStatus(tabId, frameId, status) {
  const frames = await tabStatuses(tabId);
  frames[String(frameId)] = { ...status, frameId, at: Date.now() };
  await ext.storage.session.set({ [keyOf(tabId)]: frames });
}

/** @param {number} tabId @param {number} frameId */
export async function forgetTab(tabId, frameId) {
  const frames = await tabStatuses(tabId);
  delete frames[String(frameId)];
  await ext.storage.session.set({ [keyOf(tabId)]: frames });
}

/** @param {number} tabId */
export async function forgetWholeTab(tabId) {
  await ext.storage.session.remove(keyOf(tabId));
}

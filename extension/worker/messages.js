// Messages from the popup, the options page and the content scripts. Each
// answer is a plain object; nothing here throws at the caller.

import { loadConfig, saveToken } from '../lib/config.js';
import * as service from '../lib/service.js';
import * as calls from './calls.js';
import { becomeUnpaired, followAnswer, refresh } from './health.js';
import { readStatus, setStatus } from './status.js';
import { forgetTab, saveTabStatus } from './tabs.js';

/**
 * @param {any} message
 * @param {chrome.runtime.MessageSender} sender
 * @returns {Promise<object>}
 */
export async function handle(message, sender) {
  switch (message?.type) {
    case 'popup.status':
      return { status: await refresh(), config: publicConfig(await loadConfig()) };
    case 'popup.pair':
      return pair(String(message.code ?? ''));
    case 'popup.forget':
      await becomeUnpaired();
      return { ok: true };
    case 'popup.marker':
      return addMarker(typeof message.label === 'string' ? message.label.trim() : '');
    case 'popup.mute':
      return mute(message.muted === true);
    case 'options.changed':
      return { status: await refresh() };
    case 'meeting.live':
      return promptFor(message.meeting, whereOf(sender, message.call));
    case 'meeting.ended': {
      const where = whereOf(sender, message.call);
      if (where) await calls.ended(where);
      return { ok: true };
    }
    case 'detector.status':
      if (sender.tab?.id !== undefined) await saveTabStatus(sender.tab.id, sender.frameId ?? 0, message.status);
      return { ok: true };
    case 'detector.gone':
      if (sender.tab?.id !== undefined) await forgetTab(sender.tab.id, sender.frameId ?? 0);
      return { ok: true };
    default:
      return { ok: false, message: 'unknown message' };
  }
}

/**
 * Which tab, frame and call a detector's message is about (null when the
 * message names no call or comes from no tab).
 * @param {chrome.runtime.MessageSender} sender
 * @param {unknown} call
 * @returns {import('./calls.js').Where | null}
 */
function whereOf(sender, call) {
  if (sender.tab?.id === undefined || typeof call !== 'string' || !call) return null;
  return { tabId: sender.tab.id, frameId: sender.frameId ?? 0, call };
}

/** @param {import('../lib/config.js').Config} config */
function publicConfig(config) {
  return { baseUrl: config.baseUrl, paired: config.token !== null };
}

/** @param {string} code */
async function pair(code) {
  if (!/^\d{6}$/.test(code)) return { ok: false, message: 'The pairing code is six digits.' };
  const config = await loadConfig();
  const reply = await service.pair(config, code);
  if (!reply.ok) return { ok: false, message: pairingError(reply) };
  const token = reply.body?.token;
  if (typeof token !== 'string' || !token) return { ok: false, message: 'The app answered without a token.' };
  await saveToken(token);
  return { ok: true, status: await refresh() };
}

/** @param {import('../lib/service.js').Failed} reply */
function pairingError(reply) {
  if (reply.kind === 'unreachable') return reply.message;
  // The app's own words (wrong, expired, too many tries) say what to do next.
  return `${reply.message.charAt(0).toUpperCase()}${reply.message.slice(1)}.`;
}

/** @param {string} label */
async function addMarker(label) {
  const config = await loadConfig();
  if (!config.token) return { ok: false, message: 'Pair with the app first.' };
  const reply = await service.marker(config, label || undefined);
  if (reply.ok) return { ok: true, marker: reply.body };
  if (reply.kind === 'unauthorized') await becomeUnpaired();
  if (reply.kind === 'impostor') await setStatus({ state: 'impostor', message: reply.message });
  if (reply.code === 'not_recording') await setStatus({ state: 'idle' });
  return { ok: false, message: reply.message };
}

/**
 * The person's microphone in the recording, from the popup's button.
 * @param {boolean} muted
 */
async function mute(muted) {
  const config = await loadConfig();
  if (!config.token) return { ok: false, message: 'Pair with the app first.' };
  const reply = await service.mute(config, muted);
  if (reply.ok) {
    const now = reply.body?.muted === true;
    await setStatus({ state: 'recording', muted: now });
    return { ok: true, muted: now };
  }
  if (reply.kind === 'unauthorized') await becomeUnpaired();
  if (reply.kind === 'impostor') await setStatus({ state: 'impostor', message: reply.message });
  if (reply.code === 'not_recording') await setStatus({ state: 'idle' });
  return { ok: false, message: reply.message };
}

/**
 * Asks the app to show its record card. Answers whether the content script
 * should try again later: while unpaired or while the app is not running.
 * The call is held (calls.js) from before the request, so that its end is
 * reported even when it comes while the request is on its way.
 * @param {any} meeting
 * @param {import('./calls.js').Where | null} where
 */
async function promptFor(meeting, where) {
  const config = await loadConfig();
  if (!config.token) return { outcome: 'unpaired', retry: true };
  if (where) await calls.asking(where, meeting);
  const reply = await service.prompt(config, meeting);
  const reached = reply.ok || (reply.status === 409 && reply.code === 'already_recording');
  if (where) await calls.answered(where, reached);
  if (reply.ok) {
    const { state } = await readStatus();
    if (state === 'unreachable' || state === 'impostor') await refresh();
    followAnswer(config);
    return { outcome: 'prompted', promptId: reply.body?.prompt_id ?? null, retry: false };
  }
  if (reply.kind === 'unauthorized') {
    await becomeUnpaired();
    return { outcome: 'unpaired', retry: true };
  }
  if (reply.kind === 'unreachable' || reply.kind === 'impostor') {
    // Nothing was sent with the token; the real app may come back: ask again later.
    await setStatus({ state: reply.kind, message: reply.message });
    return { outcome: reply.kind, retry: true, message: reply.message };
  }
  if (reply.status === 409 && reply.code === 'already_recording') {
    await setStatus({ state: 'recording' });
    void refresh();
    return { outcome: 'already_recording', retry: false };
  }
  const retry = reply.status === 429 || reply.status >= 500;
  return { outcome: 'refused', retry, message: `${reply.message} (${reply.code})` };
}


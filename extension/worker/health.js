// The health check: every 30 s while paired (a `chrome.alarms` alarm, which
// also wakes a stopped worker), and whenever something may have changed.

import { forgetToken, loadConfig } from '../lib/config.js';
import { ext } from '../lib/platform.js';
import { health } from '../lib/service.js';
import { endingOf, follow, followingFor, forgetLastEventId, stopFollowing } from './follow.js';
import { readStatus, setStatus } from './status.js';

export const ALARM = 'health';
const PERIOD_MINUTES = 0.5;

/** @type {Promise<import('./status.js').Status> | null} */
let inFlight = null;

/**
 * Asks the service what it is doing and mirrors it. Concurrent callers share
 * one request; `maxAgeMs` lets a caller accept a recent answer.
 * @param {{ maxAgeMs?: number }} [options]
 */
export async function refresh(options = {}) {
  if (options.maxAgeMs) {
    const status = await readStatus();
    if (Date.now() - status.checkedAt < options.maxAgeMs) return status;
  }
  inFlight ??= check().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function check() {
  const config = await loadConfig();
  if (!config.token) return becomeUnpaired();
  await ensureAlarm();
  const reply = await health(config);
  // "Forget pairing" (or a new pairing) while the service was asked: this
  // answer is about a token that is gone, and must not paint over PAIR.
  if ((await loadConfig()).token !== config.token) return readStatus();
  if (!reply.ok && reply.kind === 'unauthorized') return becomeUnpaired();
  if (!reply.ok) {
    stopFollowing();
    return setStatus({ state: reply.kind === 'impostor' ? 'impostor' : 'unreachable', message: reply.message });
  }
  const recording = reply.body?.recording ?? {};
  if (!recording.active) {
    // A stream kept for a prompt's answer stays; one for a recording is done.
    if (followingFor() !== 'prompt') {
      stopFollowing();
      await forgetLastEventId();
    }
    return setStatus({ state: 'idle' });
  }
  const status = await setStatus({
    state: 'recording',
    meetingId: recording.meeting_id ?? null,
    paused: recording.paused === true,
    muted: recording.muted === true,
    ending: endingOf(recording.ending),
  });
  void follow(config, HOOKS, { resume: true });
  return status;
}

/** @type {Parameters<typeof follow>[1]} */
const HOOKS = {
  onUnauthorized: async () => void (await becomeUnpaired()),
  onEnded: () => setTimeout(() => void refresh(), 2000),
};

/**
 * After a prompt: follow the events until the person answers, so the badge
 * shows REC the moment they choose to record.
 * @param {import('../lib/config.js').Config} config
 */
export function followAnswer(config) {
  void follow(config, HOOKS, { resume: false });
}

/** A 401 anywhere, or "Forget pairing": drop the token and show PAIR. */
export async function becomeUnpaired() {
  stopFollowing();
  await forgetToken();
  await ext.alarms.clear(ALARM);
  await ext.storage.session.remove('lastEventId');
  return setStatus({ state: 'unpaired' });
}

async function ensureAlarm() {
  const existing = await ext.alarms.get(ALARM);
  if (!existing) await ext.alarms.create(ALARM, { periodInMinutes: PERIOD_MINUTES, delayInMinutes: PERIOD_MINUTES });
}

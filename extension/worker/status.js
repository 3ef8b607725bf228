// What the badge shows, kept in `storage.session` so the popup can read it and
// a restarted worker remembers it. One status for the whole browser.

import { ext } from '../lib/platform.js';

/**
 * `impostor`: something else answers at the base URL and could not prove it is
 * the Recorder service; the token is not sent there.
 * `muted`: the microphone channel records silence (the person's choice);
 * `ending`: a countdown to the recording's own stop runs (its call ended, or
 * nothing was heard for a while), `stops_at` in ms since the epoch.
 * @typedef {'unpaired' | 'unreachable' | 'impostor' | 'idle' | 'recording'} State
 * @typedef {{ reason: string, stops_at: number, source_app: string | null }} Ending
 * @typedef {{ state: State, meetingId: string | null, title: string | null, paused: boolean, muted: boolean, ending: Ending | null, message: string, checkedAt: number }} Status
 */

/** @type {Record<State, { text: string, color: string, title: string }>} */
const BADGES = {
  unpaired: { text: 'PAIR', color: '#1a56c4', title: 'Recorder: not paired. Click to pair with the app.' },
  unreachable: { text: '!', color: '#b3541e', title: 'Recorder: the app is not running.' },
  impostor: { text: '!', color: '#b3541e', title: 'Recorder: something else is listening on its port; it is not this Recorder.' },
  idle: { text: '', color: '#5f6368', title: 'Recorder: ready, not recording.' },
  recording: { text: 'REC', color: '#c5221f', title: 'Recorder: recording.' },
};

/** @returns {Promise<Status>} */
export async function readStatus() {
  const { status } = await ext.storage.session.get('status');
  if (status && typeof status === 'object') return /** @type {Status} */ (status);
  return { state: 'unpaired', meetingId: null, title: null, paused: false, muted: false, ending: null, message: '', checkedAt: 0 };
}

/**
 * Records a new status and paints the badge.
 * @param {Partial<Status> & { state: State }} change
 */
export async function setStatus(change) {
  const previous = await readStatus();
  const keepMeeting = change.state === 'recording';
  /** @type {Status} */
  const status = {
    state: change.state,
    meetingId: change.meetingId ?? (keepMeeting ? previous.meetingId : null),
    title: change.title ?? (keepMeeting ? previous.title : null),
    paused: change.paused ?? (keepMeeting ? previous.paused : false),
    muted: change.muted ?? (keepMeeting ? previous.muted === true : false),
    ending: change.ending !== undefined ? change.ending : keepMeeting ? (previous.ending ?? null) : null,
    message: change.message ?? '',
    checkedAt: change.checkedAt ?? Date.now(),
  };
  await ext.storage.session.set({ status });
  await paint(status);
  return status;
}

/** @param {Status} status */
async function paint(status) {
  const badge = BADGES[status.state];
  const paused = status.state === 'recording' && status.paused;
  const muted = status.state === 'recording' && !paused && status.muted;
  const title = paused ? 'Recorder: recording paused.' : muted ? 'Recorder: recording, your microphone muted.' : badge.title;
  await Promise.all([
    ext.action.setBadgeText({ text: badge.text }),
    ext.action.setBadgeBackgroundColor({ color: paused ? '#5f6368' : badge.color }),
    ext.action.setBadgeTextColor?.({ color: '#ffffff' }),
    ext.action.setTitle({ title }),
  ]);
}

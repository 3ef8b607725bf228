// While the service records, the worker reads `/v1/events` (fetch and a stream
// reader: EventSource cannot send the bearer header) so the badge changes the
// moment the recording does. The last event id is kept in `storage.session`:
// a worker that Chrome stopped and started again resumes with `Last-Event-ID`.

import { ext } from '../lib/platform.js';
import { forgetVerification, openEvents } from '../lib/service.js';
import { SseParser } from '../lib/sse.js';
import { readStatus, setStatus } from './status.js';

// After a prompt, the answer comes within the prompt's life (the app's card).
const PROMPT_WAIT_MS = 3 * 60_000;

/** @type {AbortController | null} */
let current = null;
/** Why the stream is open: a recording to mirror, or a prompt's answer to await. */
/** @type {'recording' | 'prompt' | null} */
let purpose = null;
/** @type {string | null} */
let lastEventId = null;
let lastSavedAt = 0;
let lastKeptAliveAt = 0;

export function followingFor() {
  return current ? purpose : null;
}

export function stopFollowing() {
  current?.abort();
  current = null;
}

/**
 * Starts following unless already doing so. Resolves when the stream ends.
 * `resume` replays what was missed since the last event seen (a restarted
 * worker while recording); without it only new events count (a prompt just
 * sent: its answer, and the recording it may start).
 * @param {import('../lib/config.js').Config} config
 * @param {{ onUnauthorized: () => Promise<void>, onEnded: () => void }} hooks
 * @param {{ resume: boolean }} options
 */
export async function follow(config, hooks, options) {
  if (current) return;
  const controller = new AbortController();
  current = controller;
  purpose = options.resume ? 'recording' : 'prompt';
  if (!options.resume) {
    lastEventId = null;
    setTimeout(() => stopUnlessRecording(controller), PROMPT_WAIT_MS);
  }
  try {
    if (options.resume && lastEventId === null) {
      const stored = (await ext.storage.session.get('lastEventId')).lastEventId;
      lastEventId = typeof stored === 'string' ? stored : null;
    }
    const response = await openEvents(config, options.resume ? lastEventId : null, controller.signal);
    // Not proved to be the service (or a 401): the health check that follows
    // `onEnded` says what is true (unpaired, not running, not this Recorder).
    if (!(response instanceof Response)) {
      if (response.kind === 'unauthorized') await hooks.onUnauthorized();
      return;
    }
    if (response.status === 401) {
      await hooks.onUnauthorized();
      return;
    }
    if (!response.ok || !response.body) return;
    await read(response.body, controller);
  } catch {
    // Aborted, or the service went away: the health check decides what next.
    // Whatever listens on the port next proves itself again.
    if (!controller.signal.aborted) forgetVerification();
  } finally {
    if (current === controller) current = null;
    await saveLastEventId(true);
  }
  if (!controller.signal.aborted) hooks.onEnded();
}

/** @param {ReadableStream<Uint8Array>} body @param {AbortController} controller */
async function read(body, controller) {
  const parser = new SseParser((message) => void onMessage(message, controller));
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done || controller.signal.aborted) return;
    parser.push(decoder.decode(value, { stream: true }));
    keepAlive();
  }
}

/** @param {import('../lib/sse.js').SseMessage} message @param {AbortController} controller */
async function onMessage(message, controller) {
  if (message.id) lastEventId = message.id;
  const data = parseData(message.data);
  switch (message.event) {
    case 'recording.started':
      purpose = 'recording';
      await setStatus({
        state: 'recording',
        meetingId: data.meeting_id ?? null,
        title: data.title ?? null,
        paused: false,
        muted: false,
        ending: null,
      });
      break;
    case 'recording.paused':
      await setStatus({ state: 'recording', paused: data.paused === true });
      break;
    case 'recording.muted':
      await setStatus({ state: 'recording', muted: data.muted === true });
      break;
    case 'recording.ending':
      // A countdown began (`stops_at`) or was called off (null).
      await setStatus({ state: 'recording', ending: endingOf(data) });
      break;
    case 'recording.stopped': {
      // A replayed stop of an earlier recording says nothing about this one.
      const status = await readStatus();
      if (status.meetingId && data.meeting_id && data.meeting_id !== status.meetingId) break;
      await setStatus({ state: 'idle' });
      await forgetLastEventId();
      controller.abort();
      return;
    }
    case 'prompt.answered':
      // Declined or expired: nothing to follow until the next health check.
      if (data.accepted !== true) await stopUnlessRecording(controller);
      break;
    default:
      await saveLastEventId(false);
      return;
  }
  await saveLastEventId(true);
}

/** Ids only matter within one recording: the next one starts afresh. */
export async function forgetLastEventId() {
  lastEventId = null;
  await ext.storage.session.remove('lastEventId');
}

/** @param {AbortController} controller */
async function stopUnlessRecording(controller) {
  if ((await readStatus()).state !== 'recording') controller.abort();
}

/**
 * The countdown `/v1/health` and `recording.ending` describe, or null.
 * @param {any} data
 * @returns {import('./status.js').Ending | null}
 */
export function endingOf(data) {
  if (!data || typeof data.stops_at !== 'number') return null;
  return {
    reason: typeof data.reason === 'string' ? data.reason : 'call_ended',
    stops_at: data.stops_at,
    source_app: typeof data.source_app === 'string' ? data.source_app : null,
  };
}

/** @param {string} text */
function parseData(text) {
  try {
    return JSON.parse(text)?.data ?? {};
  } catch {
    return {};
  }
}

/** Persists the last id now and then (levels arrive four times a second). */
async function saveLastEventId(now = false) {
  if (!lastEventId || (!now && Date.now() - lastSavedAt < 5000)) return;
  lastSavedAt = Date.now();
  await ext.storage.session.set({ lastEventId });
}

// Chrome stops an extension worker after 30 s without extension API calls; a
// call now and then keeps it while the stream is open, that is while recording.
function keepAlive() {
  if (Date.now() - lastKeptAliveAt < 10_000) return;
  lastKeptAliveAt = Date.now();
  void ext.runtime.getPlatformInfo();
}

// The calls the worker asked the app about, one per tab and frame, kept in
// `storage.session` so that a worker the browser stopped and started again
// still knows them. When one ends (its detector says so, its tab closes, or
// its tab loads another page) the app hears `POST /v1/recording/ended` once,
// with the url its prompt carried: a recording that came from that prompt then
// stops after the app's grace period.

import { loadConfig } from '../lib/config.js';
import { ext } from '../lib/platform.js';
import * as service from '../lib/service.js';
import { becomeUnpaired } from './health.js';
import { setStatus } from './status.js';

const KEY = 'calls';

/**
 * `asking`: the prompt is on its way; `prompted`: the app took it (or said it
 * was already recording).
 * @typedef {{ call: string, tabId: number, frameId: number, source_app: string, url: string, state: 'asking' | 'prompted', at: number }} Call
 * @typedef {{ tabId: number, frameId: number, call: string }} Where
 */

/** One change at a time: the same end can arrive twice (the detector and the closed tab). */
let queue = Promise.resolve();

/**
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
function serial(work) {
  const run = queue.then(work, work);
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** @returns {Promise<Record<string, Call>>} */
async function readCalls() {
  const stored = (await ext.storage.session.get(KEY))[KEY];
  return stored && typeof stored === 'object' ? /** @type {Record<string, Call>} */ (stored) : {};
}

/** @param {Record<string, Call>} calls */
async function writeCalls(calls) {
  if (Object.keys(calls).length === 0) await ext.storage.session.remove(KEY);
  else await ext.storage.session.set({ [KEY]: calls });
}

/** @param {number} tabId @param {number} frameId */
const slot = (tabId, frameId) => `${tabId}/${frameId}`;

/**
 * Takes the calls `pick` chooses out of the store; returns them.
 * @param {(call: Call) => boolean} pick
 */
function take(pick) {
  return serial(async () => {
    const calls = await readCalls();
    const taken = Object.entries(calls).filter(([, call]) => pick(call));
    for (const [key] of taken) delete calls[key];
    if (taken.length > 0) await writeCalls(calls);
    return taken.map(([, call]) => call);
  });
}

/**
 * Before a prompt goes out: this frame's call and the url the prompt carries.
 * Another call still held for the frame is over (its end was not heard).
 * @param {Where} where
 * @param {{ source_app: string, url: string }} meeting
 */
export async function asking(where, meeting) {
  const previous = await serial(async () => {
    const calls = await readCalls();
    const key = slot(where.tabId, where.frameId);
    const held = calls[key];
    calls[key] = {
      call: where.call,
      tabId: where.tabId,
      frameId: where.frameId,
      source_app: String(meeting.source_app),
      url: String(meeting.url),
      state: held?.call === where.call ? held.state : 'asking',
      at: Date.now(),
    };
    await writeCalls(calls);
    return held && held.call !== where.call ? held : null;
  });
  if (previous) await report([previous]);
}

/**
 * The prompt's outcome: `reached` when the app took it; else the call is
 * forgotten until the detector asks again.
 * @param {Where} where
 * @param {boolean} reached
 */
export function answered(where, reached) {
  return serial(async () => {
    const calls = await readCalls();
    const key = slot(where.tabId, where.frameId);
    const held = calls[key];
    if (!held || held.call !== where.call) return;
    if (reached) held.state = 'prompted';
    else if (held.state === 'asking') delete calls[key];
    await writeCalls(calls);
  });
}

/** The detector saw the call end (left, another meeting, the page going away). @param {Where} where */
export async function ended(where) {
  await report(await take((c) => c.tabId === where.tabId && c.frameId === where.frameId && c.call === where.call));
}

/** The tab closed: its content scripts are gone, their calls with them. @param {number} tabId */
export async function tabClosed(tabId) {
  await report(await take((c) => c.tabId === tabId));
}

/**
 * The tab finished loading a page. A call whose detector no longer answers
 * with it (the page went elsewhere, or the detector went with the old page)
 * is over; one the page still holds (a single-page app's own navigation) is not.
 * @param {number} tabId
 */
export async function tabLoaded(tabId) {
  const held = Object.values(await readCalls()).filter((c) => c.tabId === tabId);
  if (held.length === 0) return;
  const gone = [];
  for (const call of held) {
    /** @type {any} */
    let answer = null;
    try {
      answer = await ext.tabs.sendMessage(tabId, { type: 'detector.call' }, { frameId: call.frameId });
    } catch {
      answer = null;
    }
    if (answer?.call !== call.call) gone.push(call.call);
  }
  if (gone.length > 0) await report(await take((c) => c.tabId === tabId && gone.includes(c.call)));
}

/**
 * Tells the app each call ended (after its proof of identity, as every
 * request). Nothing is retried: a call that ended stays ended, and a recording
 * nobody stops still ends on the app's silence timer.
 * @param {Call[]} calls
 */
async function report(calls) {
  for (const call of calls) {
    const config = await loadConfig();
    if (!config.token) return;
    const reply = await service.ended(config, { source_app: call.source_app, url: call.url });
    if (reply.ok && reply.body?.stopping === true) {
      const stopsAt = typeof reply.body.stops_at === 'number' ? reply.body.stops_at : null;
      await setStatus({ state: 'recording', ending: stopsAt ? { reason: 'call_ended', stops_at: stopsAt, source_app: call.source_app } : null });
    } else if (!reply.ok && reply.kind === 'unauthorized') {
      await becomeUnpaired();
    }
  }
}

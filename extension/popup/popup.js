// The toolbar popup: status, pairing, markers, and what the detector sees on
// the meeting tab. All service calls go through the worker.

import { loadConfig } from '../lib/config.js';
import { portOf } from '../lib/identity.js';
import { ext } from '../lib/platform.js';

const PRODUCTS = { google_meet: 'Google Meet', zoom: 'Zoom', teams: 'Microsoft Teams' };
const PHASES = {
  lobby: 'Not in the call yet (waiting room or pre-join screen).',
  muted: 'In the call, microphone muted: the app will ask once you unmute.',
  live: 'In the call with the microphone on.',
  left: 'You left the call.',
};
const OUTCOMES = {
  prompted: 'The app asked whether to record.',
  already_recording: 'The app is already recording.',
  unpaired: 'Waiting for pairing before asking the app.',
  unreachable: 'The app is not running: will ask again when it is.',
  impostor: 'Something else answers on the app’s port, not Recorder: the meeting was not sent to it.',
  refused: 'The app refused the request.',
};
const RANK = { not_meeting: 0, lobby: 1, left: 1, muted: 2, live: 3 };

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {object} message @returns {Promise<any>} */
function ask(message) {
  return ext.runtime.sendMessage(message);
}

/**
 * The countdown to the recording's own stop, while one runs.
 * @type {{ reason: string, stops_at: number } | null}
 */
let ending = null;
/** @type {ReturnType<typeof setInterval> | null} */
let endingTimer = null;

/** @param {any} status @param {{ baseUrl: string, paired: boolean }} config */
function showStatus(status, config) {
  const state = config.paired ? status.state : 'unpaired';
  document.body.dataset.state = state;
  const paused = state === 'recording' && status.paused;
  const lines = {
    unpaired: ['Not paired', 'Pair once with the code the app shows. Until then this extension tells the app nothing.'],
    unreachable: ['Recorder is not running', `Nothing answers at ${config.baseUrl}. Start the app, or run \`recorder serve\`.`],
    // Something answers at the base URL but cannot prove it is the Recorder
    // service this extension paired with: the token was not sent to it.
    impostor: [
      'Not this Recorder',
      `${status.message || `Something else is listening on port ${portOf(config.baseUrl)}; it is not this Recorder.`} Quit that program and start Recorder, or check the address in Options.`,
    ],
    idle: ['Ready, not recording', 'When a meeting goes live with your microphone on, the app asks whether to record.'],
    recording: [paused ? 'Recording paused' : 'Recording', status.title ? `“${status.title}”` : ''],
  };
  const [line, detail] = lines[/** @type {keyof typeof lines} */ (state)] ?? lines.unreachable;
  $('status-line').textContent = line;
  $('status-detail').textContent = detail;
  $('pair-form').hidden = state !== 'unpaired';
  $('marker-form').hidden = state !== 'recording';
  $('mic-card').hidden = state !== 'recording';
  $('forget').hidden = !config.paired;
  const muted = state === 'recording' && status.muted === true;
  const mute = $('mute');
  mute.setAttribute('aria-pressed', String(muted));
  mute.textContent = muted ? 'Unmute microphone' : 'Mute microphone';
  $('mic-note').textContent = muted
    ? 'You are muted in the recording: silence is written for your microphone; the others are still recorded.'
    : 'Mutes you in the recording only; the others are still recorded.';
  if (state === 'recording' && muted && !status.paused) $('status-line').textContent = 'Recording, your microphone muted';
  ending = state === 'recording' && status.ending && typeof status.ending.stops_at === 'number' ? status.ending : null;
  showEnding();
}

/** "The call ended — stopping in 24 s", counted down each second. */
function showEnding() {
  const line = $('ending');
  line.hidden = ending === null;
  if (!ending) {
    if (endingTimer) clearInterval(endingTimer);
    endingTimer = null;
    line.textContent = '';
    return;
  }
  const left = Math.max(0, Math.ceil((ending.stops_at - Date.now()) / 1000));
  const why = ending.reason === 'silence' ? 'Nothing heard for a while' : 'The call ended';
  line.textContent = left > 0 ? `${why} — stopping in ${left} s` : `${why} — stopping…`;
  endingTimer ??= setInterval(showEnding, 1000);
}

/** Asks the worker for a health check now (opening the popup is a good moment). */
async function refresh() {
  const answer = await ask({ type: 'popup.status' });
  if (answer?.status) showStatus(answer.status, answer.config);
}

/** Shows what the worker last recorded, without asking the app again. */
async function render() {
  const [{ status }, config] = await Promise.all([ext.storage.session.get('status'), loadConfig()]);
  if (status) showStatus(status, { baseUrl: config.baseUrl, paired: config.token !== null });
}

async function pair(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('code'));
  const code = input.value.replace(/\s+/g, '');
  $('pair-error').textContent = '';
  if (!/^\d{6}$/.test(code)) {
    $('pair-error').textContent = 'The pairing code is six digits.';
    input.focus();
    return;
  }
  setBusy('pair', true);
  const answer = await ask({ type: 'popup.pair', code });
  setBusy('pair', false);
  if (!answer?.ok) {
    $('pair-error').textContent = answer?.message ?? 'Pairing failed.';
    input.select();
    return;
  }
  input.value = '';
  await refresh();
}

async function toggleMute() {
  const button = /** @type {HTMLButtonElement} */ ($('mute'));
  const muted = button.getAttribute('aria-pressed') !== 'true';
  $('mute-error').textContent = '';
  setBusy('mute', true);
  const answer = await ask({ type: 'popup.mute', muted });
  setBusy('mute', false);
  if (!answer?.ok) $('mute-error').textContent = answer?.message ?? 'Could not change the microphone.';
  // The worker's new status repaints the button (storage.onChanged → render).
}

async function addMarker(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('marker-label'));
  setBusy('marker', true);
  const answer = await ask({ type: 'popup.marker', label: input.value });
  setBusy('marker', false);
  if (answer?.ok) {
    input.value = '';
    $('marker-note').textContent = `Marker “${answer.marker?.label ?? 'Marker'}” added at ${clock(answer.marker?.at_ms ?? 0)}.`;
  } else {
    $('marker-note').textContent = answer?.message ?? 'Could not add the marker.';
  }
}

/** @param {string} id @param {boolean} busy */
function setBusy(id, busy) {
  const button = /** @type {HTMLButtonElement} */ ($(id));
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
}

/** @param {number} ms */
function clock(ms) {
  const s = Math.floor(ms / 1000);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The meeting tab: the active one if it is a meeting, else the latest meeting tab. */
async function meetingTab() {
  const stored = await ext.storage.session.get(null);
  const [active] = await ext.tabs.query({ active: true, currentWindow: true });
  /** @type {[number, any][]} */
  const tabs = [];
  for (const [key, frames] of Object.entries(stored)) {
    const frame = key.startsWith('tab:') ? best(/** @type {Record<string, any>} */ (frames)) : null;
    if (frame) tabs.push([Number(key.slice(4)), frame]);
  }
  const mine = tabs.find(([id]) => id === active?.id);
  if (mine) return mine;
  tabs.sort((a, b) => b[1].at - a[1].at);
  return tabs[0] ?? null;
}

/** The frame that got furthest (Zoom's call runs in a frame of its page). */
function best(/** @type {Record<string, any>} */ frames) {
  const list = Object.values(frames);
  list.sort((a, b) => (RANK[/** @type {keyof typeof RANK} */ (b.phase)] ?? 0) - (RANK[/** @type {keyof typeof RANK} */ (a.phase)] ?? 0));
  return list[0] ?? null;
}

async function showTab() {
  const found = await meetingTab();
  $('tab').hidden = !found;
  if (!found) return;
  const [tabId, frame] = found;
  const product = PRODUCTS[/** @type {keyof typeof PRODUCTS} */ (frame.source_app)] ?? frame.source_app;
  const phase = PHASES[/** @type {keyof typeof PHASES} */ (frame.phase)] ?? frame.phase;
  const outcome = frame.prompt ? OUTCOMES[/** @type {keyof typeof OUTCOMES} */ (frame.prompt)] ?? '' : '';
  $('tab-line').textContent = `${product}: ${phase} ${outcome}`.trim();
  /** @type {any} */
  let details = null;
  try {
    details = await ext.tabs.sendMessage(tabId, { type: 'detector.details' }, { frameId: frame.frameId });
  } catch {
    details = null;
  }
  fillDetails(details ?? frame);
}

/** What the detector reported, as JSON for a bug report. */
let lastDetails = '';

async function copyDetails() {
  try {
    await navigator.clipboard.writeText(lastDetails);
    $('copy-note').textContent = 'Copied: paste it into your bug report.';
  } catch {
    $('copy-note').textContent = 'Could not copy: select the details above instead.';
  }
}

/** @param {any} d */
function fillDetails(d) {
  lastDetails = JSON.stringify({ extension: ext.runtime.getManifest().version, userAgent: navigator.userAgent, ...d }, null, 2);
  const rows = [
    ['Product', d.source_app],
    ['Where', d.frame === 'frame' ? 'a frame of the page' : 'the page'],
    ['Phase', d.phase],
    ['Meeting', d.meeting_key ?? '—'],
    ['In-call signal', d.matched?.in_call ?? 'not found'],
    ['Microphone signal', d.matched?.mic_on ?? 'not found (muted or not in a call)'],
    ['Title', d.title ? `${d.title.value || '—'} (from ${d.title.from || 'nothing'})` : '—'],
    ['Attendees', d.attendees ? attendeeText(d.attendees) : '—'],
    ['Request', d.prompt ? `${d.prompt.outcome}${d.prompt.message ? `: ${d.prompt.message}` : ''}${d.prompt.attempts ? ` (${d.prompt.attempts} retries)` : ''}` : 'none yet'],
    ['Cost', d.cost ? `${d.cost.evaluations} checks, p99 ${d.cost.evaluate_p99_ms.toFixed(2)} ms` : '—'],
  ];
  const list = $('details-list');
  list.replaceChildren();
  for (const [term, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = String(value ?? '—');
    list.append(dt, dd);
  }
}

/** @param {{ list: { name: string, self?: boolean }[], from: string }} attendees */
function attendeeText(attendees) {
  const names = attendees.list.map((a) => (a.self ? `${a.name} (you)` : a.name));
  const shown = names.slice(0, 8).join(', ') + (names.length > 8 ? `, +${names.length - 8}` : '');
  return `${attendees.list.length}${attendees.from ? ` from ${attendees.from}` : ''}${shown ? `: ${shown}` : ''}`;
}

$('pair-form').addEventListener('submit', (event) => void pair(/** @type {SubmitEvent} */ (event)));
$('marker-form').addEventListener('submit', (event) => void addMarker(/** @type {SubmitEvent} */ (event)));
$('mute').addEventListener('click', () => void toggleMute());
$('forget').addEventListener('click', async () => {
  await ask({ type: 'popup.forget' });
  await refresh();
  /** @type {HTMLInputElement} */ ($('code')).focus();
});
$('open-settings').addEventListener('click', () => void ext.tabs.create({ url: 'recorder://pair' }));
$('options').addEventListener('click', () => void ext.runtime.openOptionsPage());
$('copy-details').addEventListener('click', () => void copyDetails());
ext.storage.onChanged.addListener((changes, area) => {
  if ((area === 'session' && changes.status) || (area === 'local' && changes.token)) void render();
  if (area === 'session' && Object.keys(changes).some((key) => key.startsWith('tab:'))) void showTab();
});

void refresh();
void showTab();

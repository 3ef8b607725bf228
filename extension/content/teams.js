// Microsoft Teams on the web: https://teams.microsoft.com/…,
// https://teams.live.com/… and https://teams.cloud.microsoft/… (the address
// Microsoft moves Teams for work to). Teams is one single-page app for chat, calendar and
// calls, so the observer runs on the whole app; each check is two lookups.
(() => {
  'use strict';
  /** @type {any} */
  const detector = /** @type {any} */ (globalThis).recorderDetector;
  const { cleanText, readAttendees } = detector;

  const HOSTS = ['teams.microsoft.com', 'teams.live.com', 'teams.cloud.microsoft'];

  /** @param {URL} url */
  function meetingKey(url) {
    if (!HOSTS.includes(url.hostname)) return null;
    let whole = url.pathname + url.hash;
    try {
      whole = decodeURIComponent(whole);
    } catch {
      // A malformed escape: read the URL as it is.
    }
    const thread = /19:meeting_[^/@]+@thread\.v2/.exec(whole)?.[0];
    if (thread) return thread;
    return /\/meet\/(\d+)/.exec(url.pathname)?.[1] ?? 'call';
  }

  /** "(3) Weekly sync | Microsoft Teams" → "Weekly sync". */
  /** @param {string} key */
  function title(key) {
    const fromTab = cleanText(document.title.replace(/^\(\d+\)\s*/, '').replace(/\s*\|\s*Microsoft Teams.*$/i, ''));
    if (fromTab && !/^(microsoft teams|teams|calendar|chat|activity|calls)$/i.test(fromTab)) return { value: fromTab, from: 'document.title' };
    return { value: key === 'call' ? 'Teams call' : key, from: 'meeting id' };
  }

  /** The own name, from the account button: "Profile picture of Ada Lovelace." */
  function ownName() {
    const label = document.querySelector('[data-tid="me-control-avatar"]')?.getAttribute('aria-label') ?? '';
    return /^Profile picture of (.+?)\.?$/.exec(cleanText(label))?.[1] ?? null;
  }

  /** A roster row's name: its avatar's text, else what follows the data-tid prefix. */
  /** @param {Element} row */
  function rowName(row) {
    const avatar = cleanText(row.querySelector('[id^="roster-avatar-img-"]')?.textContent);
    const label = cleanText(row.textContent);
    const own = /[(（](you|sie|du)[)）]/i.test(label) ? ' (You)' : '';
    return (avatar || (row.getAttribute('data-tid') ?? '').replace(/^participantsInCall-/, '')) + own;
  }

  const attendees = () =>
    readAttendees(
      [
        { selector: '[data-tid="roster-participant"]' },
        { selector: '[data-tid^="participantsInCall-"]', name: rowName },
        { selector: '[data-cid="calling-participant-stream"][data-tid]', name: (/** @type {Element} */ e) => e.getAttribute('data-tid') ?? '' },
      ],
      ownName,
    );

  detector.start({
    source_app: 'teams',
    meetingKey,
    inCall: [{ selector: '#hangup-button' }, { selector: '[data-tid="hangup-main-btn"]' }],
    micOn: [{ selector: 'button[aria-label^="Mute mic" i]' }, { selector: '#microphone-button[data-state="mic"]' }],
    title,
    attendees,
  });
})();

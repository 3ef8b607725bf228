// Zoom web client: https://app.zoom.us/wc/<digits>/… or https://*.zoom.us/wc/…
// The app.zoom.us shell runs the call in its #webclient frame (same path, so
// the script runs there too: all_frames); opened directly, in the page itself.
(() => {
  'use strict';
  /** @type {any} */
  const detector = /** @type {any} */ (globalThis).recorderDetector;
  const { cleanText, readAttendees } = detector;
  const GENERIC_TITLES = /^(zoom|zoom meeting|zoom web client|zoom workplace|error)$/i;

  /** @param {URL} url */
  function meetingKey(url) {
    if (!(url.hostname === 'zoom.us' || url.hostname.endsWith('.zoom.us')) || !url.pathname.startsWith('/wc/')) return null;
    return /\/(\d{8,12})(?:\/|$)/.exec(url.pathname)?.[1] ?? url.pathname;
  }

  /** The tab title is "Zoom" in a call; a topic, where one shows, wins. */
  /** @param {string} key */
  function title(key) {
    const fromTab = cleanText(document.title.replace(/\s*[-–—|]\s*Zoom.*$/i, ''));
    if (fromTab && !GENERIC_TITLES.test(fromTab) && fromTab !== key) return { value: fromTab, from: 'document.title' };
    const topic = cleanText(document.querySelector('.meeting-info-container__topic, .meeting-topic, [class*="meeting-title"]')?.textContent);
    if (topic && topic !== key) return { value: topic, from: 'meeting topic' };
    return { value: key, from: 'meeting number' };
  }

  const attendees = () =>
    readAttendees([
      { selector: '.video-avatar__avatar-footer span' },
      { selector: '.participants-item__display-name', name: panelName },
    ]);

  /** The panel shows "(Me)" / "(Host, me)" in a sibling label. */
  /** @param {Element} element */
  function panelName(element) {
    const label = element.parentElement?.querySelector('.participants-item__name-label')?.textContent ?? '';
    return `${element.textContent ?? ''} ${label}`;
  }

  detector.start({
    source_app: 'zoom',
    meetingKey,
    inCall: [{ selector: 'button[aria-label="Leave"]' }, { selector: '.footer__leave-btn-container button' }],
    micOn: [{ selector: 'button[aria-label^="mute my microphone" i]' }],
    title,
    attendees,
  });
})();

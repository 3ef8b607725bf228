// Google Meet: https://meet.google.com/xxx-xxxx-xxx (CONTRACT §10 signals
// first, then language-independent ones; see extension-dev/tests/pages/SIGNALS.md).
(() => {
  'use strict';
  /** @type {any} */
  const detector = /** @type {any} */ (globalThis).recorderDetector;
  const { cleanText, readAttendees } = detector;
  const CODE = /^\/([a-z]{3}-[a-z]{4}-[a-z]{3})(?:\/|$)/;

  /** @param {URL} url */
  const meetingKey = (url) => (url.hostname === 'meet.google.com' ? (CODE.exec(url.pathname)?.[1] ?? null) : null);

  /** "Meet - Weekly sync" → "Weekly sync"; the bare code or "Meet" is no title. */
  /** @param {string} key */
  function title(key) {
    const fromTab = cleanText(document.title.replace(/^(Google )?Meet\s*[-–—:|]\s*/, ''));
    if (fromTab && fromTab !== key && !/^(Google )?Meet$/.test(fromTab)) return { value: fromTab, from: 'document.title' };
    const attribute = cleanText(document.querySelector('[data-meeting-title]')?.getAttribute('data-meeting-title'));
    if (attribute && attribute !== key) return { value: attribute, from: '[data-meeting-title]' };
    return { value: key, from: 'meeting code' };
  }

  /** The own tile has "Backgrounds and effects" / "Reframe" where others have "Pin". */
  /** @param {Element} element */
  const ownTile = (element) => element.closest('[data-participant-id]')?.querySelector('[jsname="Ac69Jc"], [jsname="nsKqzb"]') != null;

  /** Screen-share tiles ("<name> (Presentation)") show a second media id. */
  /** @param {Element} element */
  function presentation(element) {
    const tile = element.closest('[data-participant-id]');
    const media = tile?.getAttribute('data-tile-media-id');
    return !!media && media !== tile?.getAttribute('data-participant-id');
  }

  const attendees = () =>
    readAttendees([
      { selector: '[data-participant-id] [data-self-name]', self: ownTile, skip: presentation },
      { selector: '[data-participant-id][data-tile-media-id] span.notranslate', self: ownTile, skip: presentation },
      { selector: '[role="list"] [role="listitem"][aria-label]', name: (/** @type {Element} */ e) => e.getAttribute('aria-label') ?? '' },
    ]);

  detector.start({
    source_app: 'google_meet',
    meetingKey,
    inCall: [{ selector: 'button[aria-label^="Leave call"]' }, { selector: 'button[jsname="CQylAd"]' }],
    micOn: [
      { selector: 'button[aria-label^="Turn off microphone"]' },
      { selector: 'button[jsname="hw0c9"][data-is-muted="false"]' },
    ],
    title,
    attendees,
  });
})();

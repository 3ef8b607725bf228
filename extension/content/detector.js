// The part every meeting detector shares (a classic content script; the product
// script loaded after it calls `recorderDetector.start(product)`).
//
// On a meeting URL it watches the page with one MutationObserver, throttled to
// an evaluation every 250 ms at most; elsewhere on the product's site it only
// listens for navigation. A call is live when the in-call controls are present
// and the microphone is on; it then asks the service worker, once per call, to
// prompt the app, and keeps asking (with back-off) while the call is live and
// the app cannot be reached or is not paired. Leaving ends the call: joining
// again prompts again. A call it asked about that ends (the person leaves, the
// page goes to another meeting or away) is reported to the worker once, which
// tells the app (`meeting.ended`); the worker also notices a closed tab. It
// reads the page's DOM and URL, never any media.
(() => {
  'use strict';
  /** @type {any} */
  const global = globalThis;
  if (global.recorderDetector) return;
  /** @type {typeof chrome} */
  const ext = global.browser ?? global.chrome;

  const THROTTLE_MS = 250;
  const LEAVE_CONFIRM_MS = 600;
  const RETRY_MS = [1000, 2000, 4000, 8000, 15000, 30000];
  const SAMPLES = 4096;
  const WATCHED_ATTRIBUTES = ['aria-label', 'aria-pressed', 'data-is-muted', 'data-state', 'data-tid', 'id', 'class', 'hidden'];

  /**
   * @typedef {{ selector: string, test?: (element: Element) => boolean }} Signal
   * @typedef {{ name: string, self?: true }} Attendee
   * @typedef {{
   *   source_app: string,
   *   meetingKey: (url: URL) => string | null,
   *   inCall: Signal[],
   *   micOn: Signal[],
   *   title: (key: string) => { value: string, from: string },
   *   attendees: () => { list: Attendee[], from: string },
   *   meetingUrl?: (url: URL) => string,
   * }} Product
   */

  /** @type {WeakMap<Signal[], { element: Element, selector: string, test?: (element: Element) => boolean }>} */
  const lastMatch = new WeakMap();

  /**
   * The first signal that matches: the element and the selector that found it.
   * The element found last time is checked first (still in the page, still
   * matching): in a call that is one `matches` instead of a document search.
   * @param {Signal[]} signals
   */
  function find(signals) {
    const last = lastMatch.get(signals);
    if (last && last.element.isConnected && last.element.matches(last.selector) && (!last.test || last.test(last.element))) {
      return { element: last.element, selector: last.selector };
    }
    for (const signal of signals) {
      for (const element of signal.test ? document.querySelectorAll(signal.selector) : [document.querySelector(signal.selector)]) {
        if (element && (!signal.test || signal.test(element))) {
          lastMatch.set(signals, { element, selector: signal.selector, test: signal.test });
          return { element, selector: signal.selector };
        }
      }
    }
    lastMatch.delete(signals);
    return null;
  }

  /** @param {string | null | undefined} text */
  function cleanText(text) {
    return (text ?? '').replace(/\s+/g, ' ').trim();
  }

  /**
   * Names read from elements: cleaned, de-duplicated (case-insensitive), the
   * own entry marked `self` and put first.
   * @param {Iterable<{ name: string, self?: boolean }>} found
   * @returns {Attendee[]}
   */
  function uniqueAttendees(found) {
    /** @type {Map<string, Attendee>} */
    const byName = new Map();
    for (const { name, self } of found) {
      const clean = cleanText(name);
      if (!clean || clean.length > 200) continue;
      const key = clean.toLocaleLowerCase();
      const known = byName.get(key);
      if (!known) byName.set(key, self ? { name: clean, self: true } : { name: clean });
      else if (self) known.self = true;
    }
    const list = [...byName.values()];
    return [...list.filter((a) => a.self), ...list.filter((a) => !a.self)].slice(0, 200);
  }

  // A trailing "(You)", "(Host, me)", "(Organizer)"… is no part of a name;
  // the words that mean the person themself mark the own entry.
  const ROLE_SUFFIX = /\s*[(（]([^()（）]*)[)）]\s*$/;
  const ROLE_WORDS = /\b(you|me|host|co-host|guest|organi[sz]er|presenter|external|du|sie|ich|gast|moderator|organisator)\b/i;
  const SELF_WORDS = /\b(you|me|du|sie|ich)\b/i;

  /** @param {string} text @returns {{ name: string, self: boolean }} */
  function splitRole(text) {
    const clean = cleanText(text);
    const role = ROLE_SUFFIX.exec(clean);
    if (!role || !ROLE_WORDS.test(role[1])) return { name: clean, self: false };
    return { name: clean.slice(0, role.index).trim(), self: SELF_WORDS.test(role[1]) };
  }

  /**
   * @typedef {{ selector: string, name?: (element: Element) => string, self?: (element: Element) => boolean, skip?: (element: Element) => boolean }} NameSource
   */

  /**
   * Attendees from the first source that shows any: names cleaned of role
   * suffixes, the own entry marked (by the suffix, the source's own test, or
   * `ownName`), de-duplicated.
   * @param {NameSource[]} sources
   * @param {() => string | null} [ownName]
   */
  function readAttendees(sources, ownName) {
    const own = cleanText(ownName?.() ?? '');
    for (const source of sources) {
      const found = [];
      for (const element of document.querySelectorAll(source.selector)) {
        if (source.skip?.(element)) continue;
        const { name, self } = splitRole(source.name ? source.name(element) : (element.textContent ?? ''));
        found.push({ name, self: self || (source.self?.(element) ?? false) || (own !== '' && name === own) });
      }
      if (own && found.length > 0 && !found.some((a) => a.name === own)) found.push({ name: own, self: true });
      const list = uniqueAttendees(found);
      if (list.length > 0) return { list, from: source.selector };
    }
    return { list: own ? [{ name: own, self: true }] : [], from: own ? 'own name' : '' };
  }

  /** @param {number[]} samples @param {number} q */
  function quantile(samples, q) {
    if (samples.length === 0) return 0;
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  /** @param {Product} product */
  function start(product) {
    /**
     * `id` names the call to the worker (prompt, end); `prompted`: the call went
     * live and the worker was asked to prompt for it.
     * @type {{ id: string, key: string, prompted: boolean, ended: boolean, attempts: number, missingSince: number | null, outcome: string, message: string, promptedAt: number | null } | null}
     */
    let call = null;
    /** @type {MutationObserver | null} */
    let observer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let pending = null;
    let phase = 'not_meeting';
    /** @type {{ in_call: string | null, mic_on: string | null }} */
    let matched = { in_call: null, mic_on: null };
    let lastReport = '';
    let alive = true;
    /** @type {number[]} */
    const batchMs = [];
    /** @type {number[]} */
    const evaluateMs = [];
    /** @type {number[]} */
    const promptMs = [];

    /** @param {number[]} list @param {number} value */
    const sample = (list, value) => {
      list.push(value);
      if (list.length > SAMPLES) list.shift();
    };

    /** @param {object} message */
    async function send(message) {
      if (!alive) return null;
      try {
        return await ext.runtime.sendMessage(message);
      } catch {
        // The extension was reloaded or removed: this copy of the script is orphaned.
        shutDown();
        return null;
      }
    }

    function shutDown() {
      alive = false;
      observer?.disconnect();
      if (pending) clearTimeout(pending);
    }

    function schedule(delay = THROTTLE_MS) {
      if (pending || !alive) return;
      pending = setTimeout(() => {
        pending = null;
        const began = performance.now();
        evaluate();
        sample(evaluateMs, performance.now() - began);
      }, delay);
    }

    function watch() {
      if (observer) return;
      observer = new MutationObserver(() => {
        const began = performance.now();
        schedule();
        sample(batchMs, performance.now() - began);
      });
      observer.observe(document.documentElement, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: WATCHED_ATTRIBUTES,
      });
    }

    function unwatch() {
      observer?.disconnect();
      observer = null;
    }

    function evaluate() {
      const key = product.meetingKey(new URL(location.href));
      if (!key) {
        unwatch();
        endCall();
        report('not_meeting', { in_call: null, mic_on: null });
        return;
      }
      watch();
      const inCall = find(product.inCall);
      const micOn = inCall ? find(product.micOn) : null;
      if (inCall && call && call.key !== key) endCall();
      if (inCall && !call) call = newCall(key);
      if (!inCall && call && !confirmLeft()) return;
      const wasInCall = phase === 'muted' || phase === 'live' || phase === 'left';
      const next = inCall ? (micOn ? 'live' : 'muted') : wasInCall ? 'left' : 'lobby';
      if (inCall && call) call.missingSince = null;
      report(next, { in_call: inCall?.selector ?? null, mic_on: micOn?.selector ?? null });
      if (next === 'live' && call && !call.prompted) {
        call.prompted = true;
        // Reading the roster for the request is a one-off per call, kept out
        // of the per-check cost (and measured on its own).
        const current = call;
        queueMicrotask(() => void ask(current));
      }
    }

    /** Leaving counts once the controls stay gone a moment (re-renders flicker). */
    function confirmLeft() {
      if (!call) return true;
      const now = performance.now();
      call.missingSince ??= now;
      const waited = now - call.missingSince;
      if (waited < LEAVE_CONFIRM_MS) {
        schedule(LEAVE_CONFIRM_MS - waited + 10);
        return false;
      }
      endCall();
      return true;
    }

    /** @param {string} key */
    function newCall(key) {
      const id = `${product.source_app}:${crypto.randomUUID()}`;
      return { id, key, prompted: false, ended: false, attempts: 0, missingSince: null, outcome: 'waiting for the microphone', message: '', promptedAt: null };
    }

    /**
     * The call is over. One the worker was asked to prompt for is reported
     * (the worker knows which of them reached the app, and reports each once).
     */
    function endCall() {
      if (call) {
        call.ended = true;
        if (call.prompted) void send({ type: 'meeting.ended', call: call.id });
      }
      call = null;
    }

    /** The body of `POST /v1/recording/prompt`, read from the page now. */
    function meeting() {
      const key = product.meetingKey(new URL(location.href)) ?? '';
      return {
        source_app: product.source_app,
        title: product.title(key).value || key,
        url: (product.meetingUrl ?? defaultMeetingUrl)(new URL(location.href)),
        attendees: product.attendees().list,
      };
    }

    /** @param {NonNullable<typeof call>} current */
    async function ask(current) {
      const began = performance.now();
      const body = meeting();
      sample(promptMs, performance.now() - began);
      const answer = await send({ type: 'meeting.live', call: current.id, meeting: body });
      if (current.ended) return;
      current.outcome = answer?.outcome ?? 'no answer';
      current.message = answer?.message ?? '';
      current.promptedAt = Date.now();
      reportNow();
      if (!answer?.retry) return;
      const delay = RETRY_MS[Math.min(current.attempts, RETRY_MS.length - 1)];
      current.attempts += 1;
      setTimeout(() => {
        if (!current.ended && alive) void ask(current);
      }, delay);
    }

    /** @param {string} next @param {typeof matched} signals */
    function report(next, signals) {
      phase = next;
      matched = signals;
      reportNow();
    }

    function reportNow() {
      if (phase === 'not_meeting') {
        // Nothing to tell about a page that is no meeting (and no wake-up).
        if (lastReport) void send({ type: 'detector.gone' });
        lastReport = '';
        return;
      }
      const status = { source_app: product.source_app, phase, matched, prompt: call?.outcome ?? null };
      const text = JSON.stringify(status);
      if (text === lastReport) return;
      lastReport = text;
      void send({ type: 'detector.status', status });
    }

    function details() {
      const key = product.meetingKey(new URL(location.href));
      const title = key ? product.title(key) : { value: '', from: '' };
      const attendees = key ? product.attendees() : { list: [], from: '' };
      return {
        source_app: product.source_app,
        frame: window === window.top ? 'page' : 'frame',
        phase,
        meeting_key: key,
        matched,
        title,
        attendees,
        prompt: call ? { outcome: call.outcome, message: call.message, attempts: call.attempts, at: call.promptedAt } : null,
        cost: {
          batches: batchMs.length,
          batch_p50_ms: quantile(batchMs, 0.5),
          batch_p99_ms: quantile(batchMs, 0.99),
          evaluations: evaluateMs.length,
          evaluate_p50_ms: quantile(evaluateMs, 0.5),
          evaluate_p99_ms: quantile(evaluateMs, 0.99),
          prompt_bodies: promptMs.length,
          prompt_body_max_ms: Math.max(0, ...promptMs),
        },
      };
    }

    ext.runtime.onMessage.addListener((message, _sender, sendResponse) => {
      if (message?.type === 'detector.details') sendResponse(details());
      // The worker asking, after the tab loaded something, whether a call it
      // knows is still on in this frame.
      else if (message?.type === 'detector.call') sendResponse({ call: call && !call.ended ? call.id : null });
      return false;
    });

    // Single-page apps change the URL without loading a page.
    const onNavigate = () => schedule();
    global.navigation?.addEventListener('currententrychange', onNavigate);
    window.addEventListener('popstate', onNavigate);
    // The page going away (another page, a reload, the tab closing) ends its
    // call. Best effort: a browser may drop a message from a page it unloads,
    // so the worker also checks a tab that loaded a page or closed (calls.js).
    window.addEventListener('pagehide', () => {
      endCall();
      if (lastReport) void send({ type: 'detector.gone' });
    });
    // Back from the back-forward cache: look again (a call there is a new one).
    window.addEventListener('pageshow', (event) => {
      if (event.persisted) schedule();
    });
    evaluate();
  }

  /** The page's URL without secrets a link may carry (passcodes, tokens). */
  /** @param {URL} url */
  function defaultMeetingUrl(url) {
    const clean = new URL(url.href);
    for (const name of ['pwd', 'passcode', 'p', 'tk', 'zak', 'token']) clean.searchParams.delete(name);
    return clean.href;
  }

  global.recorderDetector = { start, cleanText, readAttendees };
})();

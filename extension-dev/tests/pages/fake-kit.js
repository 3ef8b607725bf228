// What every fake meeting page shares: the own user, the states, HTML helpers,
// the initial roster from the query, and `window.fake`, the API tests drive a
// page with. Each page keeps only its product's DOM. The tests inline this file
// where a page loads fake-kit.js by a script tag; a page opened from
// disk loads it from beside itself.
(() => {
  'use strict';
  const SELF = 'Ada Lovelace';
  const STATES = ['lobby', 'muted', 'live', 'left'];
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const el = (html) => { const t = document.createElement('template'); t.innerHTML = html.trim(); return t.content.firstElementChild; };

  /** ?n=50 → "Person 1".."Person 50"; ?people=A,B; default two guests. The own user always first. */
  function initialPeople(q) {
    let list;
    if (q.has('n')) {
      const n = Math.max(0, parseInt(q.get('n'), 10) || 0);
      list = Array.from({ length: n }, (_, i) => 'Person ' + (i + 1));
    } else if (q.has('people')) {
      list = q.get('people').split(',').map((s) => s.trim()).filter(Boolean);
    } else {
      list = ['Grace Hopper', 'Alan Turing'];
    }
    return [SELF, ...list.filter((p) => p !== SELF)].filter((p, i, a) => a.indexOf(p) === i);
  }

  /**
   * Installs `window.fake` over a page's own operations: `setState(name)`,
   * `addP(name)`, `removeP(name)`, `toggleSpeaking(i)`, `tick()` and
   * `showTitle()` (shows `S.title` the product's way).
   */
  function install(S, ops, extra = {}) {
    const api = {
      state(name) {
        if (name === undefined) return S.state;
        if (!STATES.includes(name)) throw new Error('unknown state: ' + name);
        if (name !== S.state) ops.setState(name);
        return S.state;
      },
      addParticipant(name) { return ops.addP(String(name)); },
      removeParticipant(name) { return ops.removeP(String(name)); },
      setTitle(text) { S.title = String(text); ops.showTitle(); return document.title; },
      churn(n) {
        let guest = null;
        let done = 0;
        for (let i = 0; i < n; i++) {
          switch (i % 4) {
            case 0: guest = 'Churn Guest ' + (++S.churnSeq); ops.addP(guest); break;
            case 1: ops.toggleSpeaking(i); break;
            case 2: if (guest) { ops.removeP(guest); guest = null; } break;
            default: ops.tick();
          }
          done++;
        }
        if (guest) { ops.removeP(guest); done++; } // the roster ends as it started
        return done;
      },
      participants() { return S.people.slice(); },
      title() { return S.title; },
      self: SELF,
      ...extra,
    };
    window.fake = api;
    return api;
  }

  /** A page whose call runs in a frame (Zoom's shell): `window.fake` forwards to the frame's. */
  function forward(frame) {
    const target = () => {
      const w = frame.contentWindow;
      const f = w && w.fake;
      if (!f) throw new Error('fake Zoom: the #webclient frame has not loaded yet (await fake.ready())');
      return f;
    };
    const call = (name) => (...args) => target()[name](...args);
    window.fake = {
      ready: () => new Promise((resolve) => {
        const poll = () => (frame.contentWindow && frame.contentWindow.fake ? resolve() : setTimeout(poll, 20));
        poll();
      }),
      state: call('state'),
      addParticipant: call('addParticipant'),
      removeParticipant: call('removeParticipant'),
      setTitle: call('setTitle'),
      churn: call('churn'),
      participants: call('participants'),
      title: call('title'),
      self: SELF,
    };
  }

  window.fakeKit = { SELF, STATES, esc, el, initialPeople, install, forward };
})();

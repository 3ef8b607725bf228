/** A small router on the History API: pushState, popstate and link interception. */
class Router {
  path = $state(location.pathname);
  search = $state(location.search);
  /** Bumped on every navigation, so pages can tell a new visit from a re-render. */
  visit = $state(0);

  params(): URLSearchParams {
    return new URLSearchParams(this.search);
  }

  sync(): void {
    this.path = location.pathname;
    this.search = location.search;
    this.visit += 1;
  }
}

export const router = new Router();

export function navigate(url: string, options: { replace?: boolean } = {}): void {
  const target = new URL(url, location.href);
  const same = target.pathname === location.pathname && target.search === location.search;
  if (options.replace || same) history.replaceState(history.state, '', target.href);
  else {
    remember({ scrollY: window.scrollY }); // where this page was, for Back
    history.pushState(null, '', target.href);
  }
  router.sync();
  if (!target.hash && !options.replace) window.scrollTo(0, 0);
  if (!options.replace) focusMain();
}

/** After a navigation, move focus to the new page so screen readers follow. */
function focusMain(): void {
  queueMicrotask(() => {
    requestAnimationFrame(() => {
      const main = document.getElementById('main');
      if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
    });
  });
}

/** What a page kept in its history entry (its scroll position, how much it had listed). */
export interface PageMemory {
  scrollY?: number;
  listed?: number;
}

/** The current history entry's memory (after Back or Forward: what the page kept). */
export function recalled(): PageMemory {
  const state: unknown = history.state;
  return state && typeof state === 'object' ? (state as PageMemory) : {};
}

/** Adds to the current history entry's memory. */
export function remember(memory: PageMemory): void {
  history.replaceState({ ...recalled(), ...memory }, '');
}

/** Replace the query string without a new history entry. */
export function replaceSearch(params: URLSearchParams): void {
  const query = params.toString();
  history.replaceState(history.state, '', location.pathname + (query ? '?' + query : ''));
  router.search = location.search;
}

export function startRouter(): void {
  // Pages put themselves back where they were (the library after loading as
  // many meetings as it had listed); the browser would scroll before they can.
  history.scrollRestoration = 'manual';
  window.addEventListener('popstate', () => router.sync());
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || !anchor.href) return;
    if (anchor.target && anchor.target !== '_self') return;
    if (anchor.hasAttribute('download') || anchor.getAttribute('rel') === 'external') return;
    const url = new URL(anchor.href);
    if (url.origin !== location.origin) return;
    if (url.pathname.startsWith('/ui/') || url.pathname.startsWith('/v1/')) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

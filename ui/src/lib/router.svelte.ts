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
  if (options.replace || same) history.replaceState(null, '', target.href);
  else history.pushState(null, '', target.href);
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

/** Replace the query string without a new history entry. */
export function replaceSearch(params: URLSearchParams): void {
  const query = params.toString();
  history.replaceState(null, '', location.pathname + (query ? '?' + query : ''));
  router.search = location.search;
}

export function startRouter(): void {
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

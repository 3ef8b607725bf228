// The library's search: results come grouped by meeting, a page of meetings
// at a time (the service counts every matching meeting and gives a cursor for
// the next page). While typing, the last word is a prefix: "bud" already
// finds "budget". The query lives in the address (`?q=`). With the embedding
// model installed it goes "By meaning" too unless that is turned off (mode
// `both`: the two rankings fused, one page; else `words`).
import { api, messageOf } from '../../api/client';
import type { Reply } from '../../api/path';
import type { MeetingMatches, SearchMode } from '../../api/types';
import { meaning } from '../../lib/meaning.svelte';
import { router } from '../../lib/router.svelte';

const SEARCH_PAGE = 10;

/** The text sent: a last word still being typed becomes a prefix. */
function asTyped(q: string): string {
  const quotes = (q.match(/"/g) ?? []).length;
  return quotes % 2 === 0 && /[\p{L}\p{N}]$/u.test(q) ? `${q}*` : q;
}

function searchPage(q: string, mode: SearchMode, cursor: string | null): Promise<Reply<'/ui/search/meetings', 'get'>> {
  return api.get('/ui/search/meetings', {
    query: { q: asTyped(q), limit: SEARCH_PAGE, mode, cursor: cursor || undefined },
  });
}

export class Search {
  query = $state(router.params().get('q') ?? '');
  groups = $state<MeetingMatches[] | null>(null);
  total = $state(0);
  nextCursor = $state<string | null>(null);
  error = $state('');
  searchingNow = $state(false);
  loadingMore = $state(false);
  readonly searching = $derived(this.query.trim().length > 0);
  /** The "By meaning" toggle (shown, and used, only when the model is installed). */
  byMeaning = $state(true);
  readonly mode: SearchMode = $derived(meaning.available && this.byMeaning ? 'both' : 'words');
  private seq = 0;

  /** No query: no results. */
  clear(): void {
    this.groups = null;
    this.error = '';
  }

  /** Starts a new search after a short pause in typing; returns what cancels it. */
  schedule(q: string, mode: SearchMode): () => void {
    const seq = ++this.seq;
    const timer = setTimeout(async () => {
      this.searchingNow = true;
      try {
        const reply = await searchPage(q, mode, null);
        if (seq !== this.seq) return;
        this.groups = reply.meetings;
        this.total = reply.total;
        this.nextCursor = reply.next_cursor ?? null;
        this.error = '';
      } catch (error) {
        if (seq !== this.seq) return;
        this.groups = [];
        this.nextCursor = null;
        this.error = messageOf(error);
      } finally {
        if (seq === this.seq) this.searchingNow = false;
      }
    }, 150);
    return () => clearTimeout(timer);
  }

  async more(): Promise<void> {
    const seq = this.seq;
    this.loadingMore = true;
    try {
      const reply = await searchPage(this.query.trim(), this.mode, this.nextCursor);
      if (seq !== this.seq) return;
      this.groups = [...(this.groups ?? []), ...reply.meetings];
      this.nextCursor = reply.next_cursor ?? null;
    } catch (error) {
      if (seq === this.seq) this.error = messageOf(error);
    } finally {
      this.loadingMore = false;
    }
  }
}

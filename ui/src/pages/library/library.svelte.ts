// The library page's shared state: the meetings listed (a page at a time,
// newest first), the filters, and going back to where the list was; with the
// search and the import, each in its own module. One per visit of the page,
// handed to its components through the component context.
import { getContext, setContext, tick } from 'svelte';
import { api, messageOf } from '../../api/client';
import type { Meeting } from '../../api/types';
import { KNOWN_APPS } from '../../lib/format';
import { recalled, type PageMemory } from '../../lib/router.svelte';
import { Imports } from './import.svelte';
import type { ListedMeetings } from './listed';
import { Search } from './search.svelte';

const PAGE = 50;
const DAY_MS = 24 * 3600 * 1000;

/** Local midnight of a date field's value (YYYY-MM-DD), ms since the epoch; null when empty. */
export function dayStart(date: string): number | null {
  if (!date) return null;
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(y, m - 1, d).getTime();
  return Number.isFinite(t) ? t : null;
}

export class LibraryState implements ListedMeetings {
  meetings = $state<Meeting[]>([]);
  total = $state(0);
  fetched = $state(0);
  loading = $state(false);
  loadError = $state('');
  done = $state(false);
  firstLoad = $state(true);
  private generation = 0;

  from = $state('');
  to = $state('');
  starredOnly = $state(false);
  tag = $state('');
  app = $state('');

  /** Whether the end of the list is in view (infinite scroll). */
  sentinelVisible = $state(false);
  /** What the history entry kept, until the list is back there (then null). */
  memory: PageMemory | null = recalled();

  readonly search = new Search();
  readonly imports: Imports;

  readonly filtersActive = $derived(Boolean(this.from || this.to || this.starredOnly || this.tag || this.app));
  readonly shown = $derived(this.filtered());
  readonly knownTags = $derived(
    [...new Set(this.meetings.flatMap((m) => m.tags))].sort((a, b) => a.localeCompare(b)),
  );
  readonly knownApps = $derived([...new Set([...KNOWN_APPS, ...this.meetings.map((m) => m.source_app)])]);

  constructor() {
    this.imports = new Imports(this);
  }

  private filtered(): Meeting[] {
    return this.meetings.filter(
      (m) =>
        (!this.starredOnly || m.starred) && (!this.tag || m.tags.includes(this.tag)) && (!this.app || m.source_app === this.app),
    );
  }

  clearFilters(): void {
    this.from = '';
    this.to = '';
    this.tag = '';
    this.app = '';
    this.starredOnly = false;
  }

  /** Loads the next page of meetings, or the first one again with `reset`. */
  async load(reset: boolean): Promise<void> {
    if (reset) {
      this.generation += 1;
      this.meetings = [];
      this.fetched = 0;
      this.done = false;
      this.loadError = '';
    }
    const mine = this.generation;
    this.loading = true;
    const fromMs = dayStart(this.from);
    const toMs = dayStart(this.to);
    try {
      const list = await api.get('/ui/meetings', {
        query: {
          limit: PAGE,
          offset: this.fetched,
          from: fromMs ?? undefined,
          to: toMs !== null ? toMs + DAY_MS : undefined,
        },
      });
      if (mine !== this.generation) return;
      const seen = new Set(this.meetings.map((m) => m.id));
      this.meetings.push(...list.meetings.filter((m) => !seen.has(m.id)));
      this.fetched += list.meetings.length;
      this.total = list.total;
      this.done = list.meetings.length < PAGE || this.fetched >= list.total;
    } catch (error) {
      if (mine === this.generation) this.loadError = messageOf(error);
    } finally {
      if (mine === this.generation) {
        this.loading = false;
        this.firstLoad = false;
      }
    }
  }

  /** Back to the library: list as many meetings as before, then scroll there. */
  async returnToWhereItWas(): Promise<void> {
    const saved = this.memory;
    this.memory = null;
    if (!saved?.scrollY) return;
    while (this.meetings.length < (saved.listed ?? 0) && !this.done && !this.loadError) {
      if (this.loading) await new Promise((resolve) => setTimeout(resolve, 30));
      else await this.load(false);
    }
    await tick();
    window.scrollTo(0, saved.scrollY);
  }

  /** Puts one meeting as the service has it now into the list (in its place by date). */
  async refreshOne(id: string): Promise<void> {
    try {
      const meeting = await api.get('/ui/meetings/{id}', { params: { id } });
      const index = this.meetings.findIndex((m) => m.id === id);
      if (index >= 0) {
        this.meetings[index] = meeting;
        return;
      }
      const last = this.meetings.at(-1);
      if (!this.done && last && meeting.started_at < last.started_at) return; // arrives with a later page
      const at = this.meetings.findIndex((m) => m.started_at < meeting.started_at);
      if (at < 0) this.meetings.push(meeting);
      else this.meetings.splice(at, 0, meeting);
      this.total += 1;
      this.fetched += 1;
    } catch {
      // gone or unreadable: leave the list as it is
    }
  }

  /** A meeting was deleted: out of the list. */
  forget(id: string): void {
    const before = this.meetings.length;
    this.meetings = this.meetings.filter((m) => m.id !== id);
    if (this.meetings.length < before) {
      this.total = Math.max(0, this.total - 1);
      this.fetched = Math.max(0, this.fetched - 1);
    }
  }

  async toggleStar(meeting: Meeting): Promise<void> {
    const starred = !meeting.starred;
    meeting.starred = starred;
    try {
      const updated = await api.patch('/ui/meetings/{id}', { params: { id: meeting.id }, body: { starred } });
      meeting.starred = updated.starred;
    } catch (error) {
      meeting.starred = !starred;
      this.loadError = messageOf(error);
    }
  }
}

/** The end of a date field's day (the next local midnight); null when empty. */
export function dayEnd(date: string): number | null {
  const start = dayStart(date);
  return start === null ? null : start + DAY_MS;
}

const KEY = Symbol('library');

/** The page's state, for its components. */
export function provideLibrary(state: LibraryState): LibraryState {
  return setContext(KEY, state);
}

export function useLibrary(): LibraryState {
  return getContext<LibraryState>(KEY);
}

// The meeting page's shared state: the meeting, its transcript, audio and
// speakers as loaded, reloading them, edits and their error, and the dialogs
// that are open. One per visit of the page, handed to its components through
// the component context (`provideMeeting` in the page, `useMeeting` in each).
import { getContext, setContext } from 'svelte';
import { api, ApiError, messageOf } from '../../api/client';
import type { Body } from '../../api/path';
import type { AudioInfo } from '../../api/types';
import type { Meeting, Segment, Speaker, SpeakerList } from '../../api/types';
import { progress } from '../../lib/live.svelte';
import { effective } from '../../lib/settings.svelte';
import { History } from './history.svelte';
import { LineEditor } from './lines.svelte';
import type { MeetingPage } from './page';
import { Player } from './player.svelte';
import { Regeneration } from './regenerate.svelte';

export class MeetingState implements MeetingPage {
  readonly id: string;
  meeting = $state<Meeting | null>(null);
  segments = $state<Segment[]>([]);
  transcriptError = $state('');
  loadError = $state('');
  notFound = $state(false);
  deleted = $state(false);
  audio = $state<AudioInfo | null>(null);
  /** The other side's speakers, when they were told apart. */
  speakerList = $state<SpeakerList | null>(null);
  /** The title field, put back to the meeting's title on every load. */
  titleDraft = $state('');
  editError = $state('');
  /** The transcript's list, for marking the current and the target line. */
  transcriptEl = $state<HTMLOListElement | null>(null);

  renaming = $state<Speaker | null>(null);
  renameOpen = $state(false);
  deleteOpen = $state(false);
  deleteError = $state('');
  /** The "Improve the transcript" dialog. */
  transcribeOpen = $state(false);

  readonly player: Player;
  readonly regeneration: Regeneration;
  /** Correcting lines in place. */
  readonly lines: LineEditor;
  /** The history panel: every change, with Undo. */
  readonly history: History;

  /** The meeting's state, as the event stream last told it. */
  readonly status = $derived(this.statusNow());
  readonly speakers = $derived(this.speakerList?.speakers ?? []);
  /** The person's name, as their lines show it. */
  readonly userName = $derived(String(effective.field('general', 'user_name').value ?? 'Me'));

  constructor(id: string) {
    this.id = id;
    this.player = new Player(this);
    this.regeneration = new Regeneration(this);
    this.lines = new LineEditor(
      () => this.id,
      (line) => this.replaceLine(line),
      () => void this.loadTranscript(),
    );
    this.history = new History(this);
  }

  personWrote(kind: string): boolean {
    return (this.meeting?.notes ?? []).some((n) => n.kind === kind && n.written_by === 'person');
  }

  /** A line as the service now has it, in place of the one shown. */
  replaceLine(line: Segment): void {
    const index = this.segments.findIndex((s) => s.id === line.id);
    if (index >= 0) this.segments[index] = line;
  }

  private statusNow(): string {
    return this.meeting ? (progress.status[this.id] ?? this.meeting.status) : '';
  }

  async loadMeeting(): Promise<void> {
    try {
      const m = await api.get('/ui/meetings/{id}', { params: { id: this.id } });
      this.meeting = m;
      this.titleDraft = m.title;
      this.loadError = '';
      delete progress.status[this.id];
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.notFound = true;
      else this.loadError = messageOf(error);
    }
  }

  async loadTranscript(): Promise<void> {
    try {
      const t = await api.get('/ui/meetings/{id}/transcript', { params: { id: this.id } });
      this.segments = t.segments;
      this.transcriptError = '';
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) this.transcriptError = messageOf(error);
    }
  }

  async loadSpeakers(): Promise<void> {
    try {
      this.speakerList = await api.get('/ui/meetings/{id}/speakers', { params: { id: this.id } });
    } catch {
      this.speakerList = null;
    }
  }

  async loadAudio(): Promise<void> {
    try {
      this.audio = await api.get('/ui/meetings/{id}/audio', { params: { id: this.id } });
    } catch {
      this.audio = null;
    }
  }

  loadAll(): Promise<unknown> {
    return Promise.all([this.loadMeeting(), this.loadTranscript(), this.loadAudio(), this.loadSpeakers()]);
  }

  private refetchTimer: ReturnType<typeof setTimeout> | null = null;
  /** Reload soon, once for a burst of events; with the transcript when it may have changed. */
  refetchSoon(withTranscript: boolean): void {
    if (this.refetchTimer) clearTimeout(this.refetchTimer);
    this.refetchTimer = setTimeout(() => {
      void this.loadMeeting();
      if (withTranscript) {
        void this.loadTranscript();
        void this.loadAudio();
        void this.loadSpeakers();
      }
    }, 300);
  }

  /** Changes the meeting; false (and `editError` set) when the service refused. */
  async patch(body: Body<'/ui/meetings/{id}', 'patch'>): Promise<boolean> {
    this.editError = '';
    try {
      const updated = await api.patch('/ui/meetings/{id}', { params: { id: this.id }, body });
      if (this.meeting) this.meeting = { ...this.meeting, ...updated };
      return true;
    } catch (error) {
      this.editError = messageOf(error);
      return false;
    }
  }

  /** The named speaker of a line of the other side, if any. */
  speakerOf(seg: Segment): Speaker | null {
    if (seg.channel !== 'sys') return null;
    return this.speakers.find((s) => s.label === seg.speaker) ?? null;
  }

  openRename(speaker: Speaker): void {
    this.renaming = speaker;
    this.renameOpen = true;
  }

  renamed(list: SpeakerList): void {
    this.speakerList = list;
    void this.loadTranscript();
    void this.loadMeeting();
  }

  /** The index of the last line starting at or before `ms` (-1 before the first). */
  indexAt(ms: number): number {
    const segments = this.segments;
    let lo = 0;
    let hi = segments.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid].start_ms <= ms) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Moves the class `cls` (current, target) to line `index`; returns that line. */
  markLine(index: number, cls: string): HTMLElement | null {
    const list = this.transcriptEl;
    if (!list) return null;
    list.querySelector(`.${cls}`)?.classList.remove(cls);
    const line = index >= 0 ? list.querySelector<HTMLElement>(`[data-i="${index}"]`) : null;
    line?.classList.add(cls);
    return line;
  }
}

const KEY = Symbol('meeting');

/** The page's state, for its components. */
export function provideMeeting(state: MeetingState): MeetingState {
  return setContext(KEY, state);
}

export function useMeeting(): MeetingState {
  return getContext<MeetingState>(KEY);
}

// Live state fed by the event stream: the recording, transcription and notes
// progress, and the record prompts waiting for a person.
import { api, messageOf } from '../api/client';
import type { EndingReason, Prompt, Segment, StopReason } from '../api/types';
import { events } from './events.svelte';
import { effective } from './settings.svelte';

/** A clock that ticks every second, for elapsed times and countdowns. */
class Now {
  value = $state(Date.now());
  constructor() {
    setInterval(() => (this.value = Date.now()), 1000);
  }
  /** Bring the clock up to date at once (when a countdown starts). */
  touch(): void {
    this.value = Date.now();
  }
}
export const now = new Now();

/** The line still being spoken on a channel (`segment.partial`): not saved, so no id. */
export type PartialLine = Omit<Segment, 'id' | 'edited'>;

export interface LiveLine extends Segment {
  key: number;
}

const SILENT_TEXT: Record<string, string> = {
  sys: 'No sound from the other side for 30 s — check the output device',
  mic: 'No sound from your microphone for 30 s — check the input device',
};

/** A countdown to the recording stopping by itself (`recording.ending`). */
export interface Ending {
  meetingId: string | null;
  reason: EndingReason;
  /** When it stops, ms since the epoch. */
  stopsAt: number;
  sourceApp: string | null;
}

/** The service's recording, kept in step by the health check and the events. */
class Recording {
  known = $state(false);
  active = $state(false);
  meetingId = $state<string | null>(null);
  title = $state('');
  paused = $state(false);
  /** The microphone channel records silence (`recording.muted`). */
  muted = $state(false);
  /** A countdown to stopping by itself runs (the call ended, or silence). */
  ending = $state<Ending | null>(null);
  startedAt = $state<number | null>(null);
  /** Milliseconds spent paused (as seen by this page). */
  pausedMs = $state(0);
  pausedSince = $state<number | null>(null);
  mic = $state(-100);
  sys = $state(-100);
  warnings = $state<{ mic: string | null; sys: string | null }>({ mic: null, sys: null });
  lines = $state<LiveLine[]>([]);
  /** The line being spoken on each channel (segment.partial), until its segment.new. */
  partials = $state<{ mic: PartialLine | null; sys: PartialLine | null }>({ mic: null, sys: null });
  lastMeetingId = $state<string | null>(null);
  /** Why the last recording stopped (`recording.stopped`'s reason), while `lastMeetingId` is shown. */
  lastStopReason = $state<StopReason | null>(null);
  version = $state('');
  private nextKey = 0;

  elapsed(at: number): number {
    if (!this.startedAt) return 0;
    const pausedNow = this.pausedSince ? at - this.pausedSince : 0;
    return Math.max(0, at - this.startedAt - this.pausedMs - pausedNow);
  }

  async refresh(): Promise<void> {
    try {
      const health = await api.get('/ui/health');
      this.version = health.version;
      const state = health.recording;
      const id = state.meeting_id ?? null;
      if (state.active && id) {
        const changed = id !== this.meetingId;
        this.active = true;
        this.meetingId = id;
        this.setPaused(state.paused === true);
        this.muted = state.muted === true;
        this.setEnding(
          state.ending
            ? { meetingId: id, reason: state.ending.reason, stopsAt: state.ending.stops_at, sourceApp: state.ending.source_app ?? null }
            : null,
        );
        if (changed) await this.loadMeeting(id);
      } else {
        this.reset(false);
      }
      this.known = true;
    } catch {
      // signed out or unreachable: the shell shows it
    }
  }

  private async loadMeeting(id: string): Promise<void> {
    try {
      const [meeting, transcript] = await Promise.all([
        api.get('/ui/meetings/{id}', { params: { id } }),
        api.get('/ui/meetings/{id}/transcript', { params: { id } }).catch(() => null),
      ]);
      if (this.meetingId !== id) return;
      this.startedAt = meeting.started_at;
      this.title = meeting.title;
      if (transcript) {
        const existing = this.lines;
        // A line corrected here while the transcript loaded keeps the correction.
        const fixed = new Map(existing.filter((l) => l.edited).map((l) => [l.id, l]));
        this.lines = transcript.segments.map((s) => ({ ...(fixed.get(s.id) ?? s), key: this.nextKey++ }));
        // keep lines that arrived while loading
        const last = this.lines.at(-1)?.start_ms ?? -1;
        for (const line of existing) if (line.start_ms > last) this.lines.push(line);
      }
    } catch (error) {
      console.warn('loading the recording meeting', messageOf(error));
    }
  }

  private setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) this.pausedSince = Date.now();
    else if (this.pausedSince) {
      this.pausedMs += Date.now() - this.pausedSince;
      this.pausedSince = null;
    }
  }

  private setEnding(ending: Ending | null): void {
    if (ending && ending.reason === 'silence' && this.ending?.reason !== 'silence') {
      // The card names recording.stop_after_silence_min: make sure it is today's.
      void effective.refresh();
    }
    if (ending) now.touch();
    this.ending = ending;
  }

  private reset(keepLast: boolean): void {
    if (keepLast && this.meetingId) this.lastMeetingId = this.meetingId;
    this.active = false;
    this.meetingId = null;
    this.paused = false;
    this.muted = false;
    this.ending = null;
    this.pausedMs = 0;
    this.pausedSince = null;
    this.startedAt = null;
    this.mic = -100;
    this.sys = -100;
    this.warnings = { mic: null, sys: null };
    this.partials = { mic: null, sys: null };
    if (!keepLast) this.lines = [];
  }

  listen(): void {
    events.on('recording.started', ({ data }) => {
      this.reset(false);
      this.lastMeetingId = null;
      this.lastStopReason = null;
      this.lines = [];
      this.active = true;
      this.meetingId = data.meeting_id;
      this.title = data.title;
      this.startedAt = data.started_at;
    });
    events.on('recording.stopped', ({ data }) => {
      if (this.meetingId === null || this.meetingId === data.meeting_id) this.reset(true);
      this.lastMeetingId = data.meeting_id;
      this.lastStopReason = data.reason ?? null;
      if (data.reason === 'silence') void effective.refresh();
    });
    events.on('recording.muted', ({ data }) => {
      if (!this.active || (this.meetingId && data.meeting_id !== this.meetingId)) return;
      this.muted = data.muted;
    });
    events.on('recording.ending', ({ data }) => {
      if (this.meetingId && data.meeting_id !== this.meetingId) return;
      this.setEnding(
        data.stops_at == null
          ? null
          : { meetingId: data.meeting_id, reason: data.reason, stopsAt: data.stops_at, sourceApp: data.source_app ?? null },
      );
    });
    events.on('recording.paused', ({ data }) => {
      if (!this.active) return;
      this.setPaused(data.paused);
    });
    events.on('recording.levels', ({ data }) => {
      if (data.meeting_id !== this.meetingId) return;
      this.mic = data.mic;
      this.sys = data.sys;
    });
    events.on('recording.channel', ({ data }) => {
      const channel = data.channel === 'mic' ? 'mic' : 'sys';
      let text: string | null = null;
      if (data.state === 'silent') text = SILENT_TEXT[channel];
      else if (data.state === 'failed')
        text = data.message || (channel === 'mic' ? 'The microphone stopped working.' : 'System audio capture stopped working.');
      else if (data.message) text = data.message; // audio lost while the channel works
      this.warnings = { ...this.warnings, [channel]: text };
    });
    events.on('segment.partial', ({ data }) => {
      if (data.meeting_id !== this.meetingId) return;
      const { speaker, channel, start_ms, end_ms, text } = data;
      this.partials = { ...this.partials, [channel === 'mic' ? 'mic' : 'sys']: { speaker, channel, start_ms, end_ms, text } };
    });
    events.on('segment.new', ({ data }) => {
      if (data.meeting_id !== this.meetingId) return;
      const channel = data.channel === 'mic' ? 'mic' : 'sys';
      if (this.partials[channel]) this.partials = { ...this.partials, [channel]: null };
      // A line already shown keeps what is there (a correction made meanwhile).
      if (data.id && this.lines.some((line) => line.id === data.id)) return;
      this.lines.push({
        id: data.id ?? `live-${data.channel}-${data.start_ms}`,
        edited: false,
        speaker: data.speaker,
        channel: data.channel,
        start_ms: data.start_ms,
        end_ms: data.end_ms,
        text: data.text,
        key: this.nextKey++,
      });
    });
    // Speakers told apart while recording: a line corrected by the person keeps theirs.
    events.on('segment.speakers', ({ data }) => {
      if (data.meeting_id !== this.meetingId) return;
      const speakers = new Map(data.segments.map((s) => [s.id, s.speaker]));
      for (const line of this.lines) {
        const speaker = speakers.get(line.id);
        if (speaker !== undefined && !line.edited) line.speaker = speaker;
      }
    });
    events.on('meeting.updated', ({ data }) => {
      if (data.meeting_id === this.meetingId && data.status && data.status !== 'recording') this.reset(true);
    });
  }
}
export const recording = new Recording();

/** A live line as the service now has it (a correction), in place. */
export function replaceLiveLine(line: Segment): void {
  const index = recording.lines.findIndex((l) => l.id === line.id);
  if (index >= 0) recording.lines[index] = { ...line, key: recording.lines[index].key };
}

/** The last `notes.progress` of a meeting; `percent` only while the notes model inside writes. */
export interface NotesProgress {
  stage: string;
  provider: string | null;
  percent: number | null;
}

/** Progress of work on meetings: transcription position and notes stages. */
class Progress {
  transcription = $state<Record<string, { position_ms: number; duration_ms: number | null }>>({});
  notes = $state<Record<string, NotesProgress>>({});
  status = $state<Record<string, string>>({});

  percent(meetingId: string): number | null {
    const p = this.transcription[meetingId];
    if (!p || !p.duration_ms) return null;
    return Math.min(100, Math.round((p.position_ms / p.duration_ms) * 100));
  }

  listen(): void {
    events.on('transcription.progress', ({ data }) => {
      this.transcription[data.meeting_id] = {
        position_ms: data.position_ms,
        duration_ms: data.duration_ms ?? null,
      };
    });
    events.on('notes.progress', ({ data }) => {
      this.notes[data.meeting_id] = { stage: data.stage, provider: data.provider ?? null, percent: data.percent ?? null };
    });
    events.on('meeting.updated', ({ data }) => {
      if (data.status) this.status[data.meeting_id] = data.status;
      if (data.status && data.status !== 'transcribing') delete this.transcription[data.meeting_id];
    });
    events.on('meeting.ready', ({ data }) => {
      this.status[data.meeting_id] = 'ready';
      delete this.transcription[data.meeting_id];
    });
  }
}
export const progress = new Progress();

/** Record prompts waiting for an answer, oldest first. */
class Prompts {
  queue = $state<Prompt[]>([]);
  /** Prompt ids hidden with Escape (not answered). */
  hidden = $state<string[]>([]);

  visible(): Prompt[] {
    return this.queue.filter((p) => !this.hidden.includes(p.prompt_id) && p.expires_at > now.value);
  }

  add(prompt: Prompt): void {
    if (this.queue.some((p) => p.prompt_id === prompt.prompt_id)) return;
    this.queue.push(prompt);
  }

  remove(promptId: string): void {
    this.queue = this.queue.filter((p) => p.prompt_id !== promptId);
  }

  async refresh(): Promise<void> {
    try {
      const reply = await api.get('/ui/prompts');
      for (const prompt of reply.prompts) this.add(prompt);
      const ids = new Set(reply.prompts.map((p) => p.prompt_id));
      this.queue = this.queue.filter((p) => ids.has(p.prompt_id));
    } catch {
      // the route may not exist yet; events still bring new prompts
    }
  }

  listen(): void {
    events.on('prompt.shown', ({ data }) => this.add(data));
    events.on('prompt.answered', ({ data }) => this.remove(data.prompt_id));
  }
}
export const prompts = new Prompts();

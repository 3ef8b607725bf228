// The meeting's two-channel player: one <audio> per channel, the first with
// the controls and the others kept in step with it (time, play, pause, rate);
// the transcript line being heard is marked, and any line can be played.
import { messageOf } from '../../api/client';
import type { MeetingPage } from './page';

export class Player {
  private readonly page: MeetingPage;
  players = $state<Record<string, HTMLAudioElement>>({});
  muted = $state<Record<string, boolean>>({});
  /** Why a line could not be played. */
  note = $state('');
  readonly channels = $derived(this.listed());
  readonly primaryChannel = $derived(this.channels[0]?.channel ?? null);
  private currentIndex = -1;

  constructor(page: MeetingPage) {
    this.page = page;
  }

  private listed() {
    return this.page.audio?.channels ?? [];
  }

  primary(): HTMLAudioElement | null {
    return this.primaryChannel ? (this.players[this.primaryChannel] ?? null) : null;
  }

  private others(): HTMLAudioElement[] {
    return this.channels
      .slice(1)
      .map((c) => this.players[c.channel])
      .filter((p): p is HTMLAudioElement => Boolean(p));
  }

  onTime = (): void => {
    const p = this.primary();
    if (!p) return;
    for (const other of this.others()) {
      if (!p.paused && Math.abs(other.currentTime - p.currentTime) > 0.25) other.currentTime = p.currentTime;
    }
    const index = this.page.indexAt(p.currentTime * 1000);
    if (index !== this.currentIndex) {
      this.currentIndex = index;
      this.page.markLine(index, 'current');
    }
  };

  onPlay = (): void => {
    const p = this.primary();
    for (const other of this.others()) {
      if (p) other.currentTime = p.currentTime;
      void other.play().catch(() => {});
    }
  };

  onPause = (): void => {
    for (const other of this.others()) other.pause();
  };

  onSeek = (): void => {
    const p = this.primary();
    if (!p) return;
    for (const other of this.others()) other.currentTime = p.currentTime;
    this.onTime();
  };

  onRate = (): void => {
    const p = this.primary();
    if (!p) return;
    for (const other of this.others()) other.playbackRate = p.playbackRate;
  };

  /** Moves to `ms`, playing from there when asked. */
  seek(ms: number, play: boolean): void {
    const p = this.primary();
    if (!p) {
      this.note = this.page.audio?.audio_removed_at
        ? 'The audio of this meeting was removed (retention settings); the transcript remains.'
        : 'No audio is available for this meeting.';
      return;
    }
    this.note = '';
    p.currentTime = ms / 1000;
    this.onSeek();
    if (play) void p.play().catch((error: unknown) => (this.note = `Playback failed: ${messageOf(error)}`));
  }
}

/** The words for a channel of the player. */
export function channelName(channel: string): string {
  return channel === 'mic' ? 'Your microphone' : 'Other side';
}

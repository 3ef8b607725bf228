// What the page's parts with state of their own (the player, the notes'
// regeneration, the history) see of the meeting page (`MeetingState` is one): the meeting,
// its audio, and the transcript's lines. A file of its own, so that the page's
// state and its parts need not import each other.
import type { AudioInfo } from '../../api/types';

export interface MeetingPage {
  readonly id: string;
  readonly audio: AudioInfo | null;
  /** The index of the last line starting at or before `ms` (-1 before the first). */
  indexAt(ms: number): number;
  /** Moves the class `cls` (current, target) to line `index`; returns that line. */
  markLine(index: number, cls: string): HTMLElement | null;
  /** Whether the person rewrote the note of this kind (a regeneration would replace it). */
  personWrote(kind: string): boolean;
  /** Reads the meeting, its transcript, audio and speakers again. */
  loadAll(): Promise<unknown>;
}

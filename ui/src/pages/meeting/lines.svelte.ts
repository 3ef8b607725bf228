// Correcting the transcript's lines in place: which line is being edited, its
// draft, saving it (PATCH /ui/meetings/:id/segments/:segment_id) and giving a
// line, or every line of its speaker, to another speaker. The meeting page's
// transcript and the recording page's live lines share it.
import { api, messageOf } from '../../api/client';
import type { Segment } from '../../api/types';

export class LineEditor {
  /** The line being edited (its id), if any. */
  editing = $state<string | null>(null);
  draft = $state('');
  saving = $state(false);
  error = $state('');
  /** The line whose speaker is being changed, for the dialog. */
  speakerOf = $state<Segment | null>(null);
  speakerOpen = $state(false);

  constructor(
    private readonly meetingId: () => string,
    /** A line as the service now has it. */
    private readonly replaced: (line: Segment) => void,
    /** Every line again (after a change to many). */
    private readonly reload: () => void,
  ) {}

  start(seg: Segment): void {
    this.editing = seg.id;
    this.draft = seg.text;
    this.error = '';
  }

  cancel(): void {
    this.editing = null;
    this.error = '';
  }

  /** Saves the draft; true when the line was saved (or left as it was). */
  async save(seg: Segment): Promise<boolean> {
    const text = this.draft.trim();
    if (!text) {
      this.error = 'A line needs words; press Escape to leave it as it was.';
      return false;
    }
    if (text === seg.text) {
      this.cancel();
      return true;
    }
    return this.send(seg, { text });
  }

  openSpeaker(seg: Segment): void {
    this.speakerOf = seg;
    this.speakerOpen = true;
  }

  /** Gives the line (or, with `all`, every line of its speaker) to `speaker`. */
  async giveTo(seg: Segment, speaker: string, all: boolean): Promise<boolean> {
    const saved = await this.send(seg, all ? { speaker, all_of_speaker: true } : { speaker });
    if (saved && all) this.reload();
    return saved;
  }

  private async send(seg: Segment, body: { text?: string; speaker?: string; all_of_speaker?: boolean }): Promise<boolean> {
    this.saving = true;
    this.error = '';
    try {
      const line = await api.patch('/ui/meetings/{id}/segments/{segment_id}', {
        params: { id: this.meetingId(), segment_id: seg.id },
        body,
      });
      this.replaced(line);
      this.editing = null;
      return true;
    } catch (error) {
      this.error = messageOf(error);
      return false;
    } finally {
      this.saving = false;
    }
  }
}

/** The speakers a line can be given to: the transcript's, the attendees, the person. */
export function speakerChoices(lines: Segment[], attendees: string[], userName: string): string[] {
  const seen = new Set<string>();
  const choices: string[] = [];
  for (const name of [...lines.map((l) => l.speaker), ...attendees, userName]) {
    const key = name.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    choices.push(name.trim());
  }
  return choices;
}

// The recording page's shared state: one action at a time (start, pause,
// marker, stop) and what it said, or why it failed; the title typed and
// whether the live transcript follows its newest line. One per visit of the
// page, handed to its components through the component context.
import { getContext, setContext } from 'svelte';
import { messageOf } from '../../lib/controls';

export class RecordingPage {
  busy = $state(false);
  error = $state('');
  note = $state('');
  /** The error names Settings → Transcription: link there. */
  settingsHint = $state(false);
  /** The title typed for the next recording. */
  title = $state('');
  /** The live transcript follows the newest line (until the person scrolls up). */
  following = $state(true);

  /** Runs one action; its words (if any) become the note, its failure the error. */
  async run(action: () => Promise<string | void>): Promise<void> {
    this.busy = true;
    this.error = '';
    this.note = '';
    this.settingsHint = false;
    try {
      this.note = (await action()) ?? '';
    } catch (e) {
      this.error = messageOf(e);
      this.settingsHint = /Settings → Transcription/.test(this.error);
    } finally {
      this.busy = false;
    }
  }
}

const KEY = Symbol('recording-page');

export function provideRecordingPage(state: RecordingPage): RecordingPage {
  return setContext(KEY, state);
}

export function useRecordingPage(): RecordingPage {
  return getContext<RecordingPage>(KEY);
}

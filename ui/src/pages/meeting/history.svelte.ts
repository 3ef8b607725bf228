// The meeting's history: every change to its record (by the person, an agent
// or the service), newest first, read when the panel opens and after each
// change; Undo puts back what a change replaced.
import { api, messageOf } from '../../api/client';
import type { Change } from '../../api/types';
import type { MeetingPage } from './page';

export class History {
  open = $state(false);
  changes = $state<Change[]>([]);
  loaded = $state(false);
  error = $state('');
  /** The change being undone. */
  undoing = $state<string | null>(null);

  constructor(private readonly page: MeetingPage) {}

  async load(): Promise<void> {
    try {
      const reply = await api.get('/ui/meetings/{id}/history', { params: { id: this.page.id } });
      this.changes = reply.changes;
      this.error = '';
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.loaded = true;
    }
  }

  /** Reads it again when it is open (after a change anywhere). */
  refresh(): void {
    if (this.open) void this.load();
  }

  async undo(change: Change): Promise<void> {
    this.undoing = change.id;
    this.error = '';
    try {
      await api.post('/ui/meetings/{id}/history/{change_id}/undo', {
        params: { id: this.page.id, change_id: change.id },
      });
      await Promise.all([this.load(), this.page.loadAll()]);
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.undoing = null;
    }
  }
}

/** Who made a change, for people. */
export function byLabel(by: string): string {
  if (by === 'person') return 'You';
  if (by === 'service') return 'Recorder';
  return by.startsWith('agent:') ? `Agent ${by.slice('agent:'.length)}` : by;
}

/** Whether Undo applies (a transcription again cannot be undone). */
export function undoable(change: Change): boolean {
  return change.target !== 'transcript';
}

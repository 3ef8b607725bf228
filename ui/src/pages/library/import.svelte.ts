// Importing an audio file into the library (button or drop): the upload's
// progress, then the new meeting's transcription, or why it failed.
import { messageOf } from '../../api/client';
import { progress } from '../../lib/live.svelte';
import { importFile } from '../../lib/upload';
import type { ListedMeetings } from './listed';

export class Imports {
  private readonly library: ListedMeetings;
  upload = $state<{ name: string; percent: number } | null>(null);
  imported = $state<{ id: string; name: string } | null>(null);
  error = $state('');
  /** The imported meeting's state, once there is one. */
  readonly importedStatus = $derived(this.statusNow());

  constructor(library: ListedMeetings) {
    this.library = library;
  }

  private statusNow(): string | null {
    const imported = this.imported;
    if (!imported) return null;
    return progress.status[imported.id] ?? this.library.meetings.find((m) => m.id === imported.id)?.status ?? 'transcribing';
  }

  async start(file: File): Promise<void> {
    this.error = '';
    this.imported = null;
    this.upload = { name: file.name, percent: 0 };
    try {
      const meeting = await importFile(file, (fraction) => {
        if (this.upload) this.upload.percent = Math.round(fraction * 100);
      });
      this.imported = { id: meeting.id, name: file.name };
      void this.library.refreshOne(meeting.id);
    } catch (error) {
      this.error = `Could not import ${file.name}: ${messageOf(error)}`;
    } finally {
      this.upload = null;
    }
  }
}

// What the two model panels share (Settings → Transcription's models, Settings → AI's
// notes models): the list and its loading, a download's progress and end followed
// from events (only the panel's own files), actions with a busy flag and a note for
// the person, and the form that adds a model file from this computer.
import { messageOf } from '../api/client';
import { useEvent } from './events.svelte';

interface Downloadable {
  file_name: string;
  name: string;
  downloading?: { received: number; total?: number | null } | null;
}

export class ModelPanel<E extends Downloadable, L extends { models: E[] }> {
  list = $state<L | null>(null);
  error = $state('');
  note = $state('');
  busy = $state<Record<string, boolean>>({});
  addPath = $state('');
  addError = $state('');
  adding = $state(false);

  /** `fetch` reads the list; `named` names a model in the notes the person reads. */
  constructor(
    private readonly fetch: () => Promise<L>,
    private readonly named: (m: E) => string,
  ) {
    useEvent('models.download', ({ data }) => {
      const entry = this.list?.models.find((m) => m.file_name === data.file_name);
      if (entry) entry.downloading = { received: data.received, total: data.total ?? null };
    });
    useEvent('models.installed', ({ data }) => {
      const entry = this.list?.models.find((m) => m.file_name === data.file_name);
      if (!entry) return;
      this.note = `Installed ${this.named(entry)}.`;
      void this.load();
    });
    useEvent('error', ({ data }) => {
      if (!data.file_name && !data.model) return;
      const ours = this.list?.models.some((m) => (data.file_name ? m.file_name === data.file_name : m.name === data.model));
      if (!ours) return;
      this.note = data.message;
      void this.load();
    });
  }

  async load(): Promise<void> {
    try {
      this.list = await this.fetch();
      this.error = '';
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  /** Runs an action on one model: its buttons are disabled meanwhile; the note says how it went. */
  async act(key: string, action: () => Promise<string>): Promise<void> {
    this.busy[key] = true;
    this.note = '';
    try {
      this.note = await action();
    } catch (e) {
      this.note = messageOf(e);
    } finally {
      this.busy[key] = false;
    }
  }

  /** The add-a-file form: `add` installs the path and returns the note to show. */
  async addFile(event: SubmitEvent, empty: string, add: (path: string) => Promise<string>): Promise<void> {
    event.preventDefault();
    const path = this.addPath.trim();
    if (!path) {
      this.addError = empty;
      return;
    }
    this.adding = true;
    this.addError = '';
    this.note = '';
    try {
      const note = await add(path);
      this.addPath = '';
      await this.load();
      this.note = note;
    } catch (e) {
      this.addError = messageOf(e).replace(/^field `path`: /, '');
    } finally {
      this.adding = false;
    }
  }

  /** How far a download is, in percent (null when its size is not known). */
  pct(m: E): number | null {
    const d = m.downloading;
    if (!d || !d.total) return null;
    return Math.min(100, Math.round((d.received / d.total) * 100));
  }
}

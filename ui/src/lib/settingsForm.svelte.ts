// The settings form: settings.json as on disk, a draft the controls edit, and
// saving one section at a time.
import { api, ApiError, messageOf } from '../api/client';
import { effective, type Doc, type Json } from './settings.svelte';

function clone(doc: Doc): Doc {
  return JSON.parse(JSON.stringify(doc)) as Doc;
}

/** settings.json as on disk, a draft the controls edit, and per-section saving. */
class SettingsForm {
  doc = $state<Doc | null>(null);
  draft = $state<Doc>({});
  loadError = $state('');
  /** Errors keyed by `section.key`, or by `section` for the whole section. */
  errors = $state<Record<string, string>>({});
  saved = $state<Record<string, boolean>>({});
  saving = $state<Record<string, boolean>>({});

  async load(): Promise<void> {
    try {
      const doc = await api.get('/ui/settings');
      this.doc = doc;
      this.draft = clone(doc);
      this.loadError = '';
    } catch (error) {
      this.loadError = messageOf(error);
    }
  }

  /** Reads settings.json again (changed elsewhere), keeping the unsaved edits of each section. */
  async refresh(): Promise<void> {
    if (!this.doc) return this.load();
    try {
      const doc = await api.get('/ui/settings');
      const draft = clone(doc);
      for (const section of Object.keys(this.draft)) {
        if (this.dirty(section)) draft[section] = this.draft[section];
      }
      this.doc = doc;
      this.draft = draft;
    } catch {
      // keep what is shown; the next save reports any problem
    }
  }

  get(section: string, key: string): Json {
    return this.draft[section]?.[key] ?? null;
  }

  set(section: string, key: string, value: Json): void {
    if (!this.draft[section]) this.draft[section] = {};
    this.draft[section][key] = value;
    this.saved[section] = false;
    delete this.errors[`${section}.${key}`];
  }

  changed(section: string): Record<string, Json> {
    const out: Record<string, Json> = {};
    const before = this.doc?.[section] ?? {};
    const after = this.draft[section] ?? {};
    for (const key of Object.keys(after)) {
      if (effective.field(section, key).managedBy) continue;
      if (JSON.stringify(after[key] ?? null) !== JSON.stringify(before[key] ?? null)) out[key] = after[key] ?? null;
    }
    return out;
  }

  dirty(section: string): boolean {
    return Object.keys(this.changed(section)).length > 0;
  }

  /** PATCH the changed keys of one section (or the given keys). */
  async save(section: string, only?: Record<string, Json>): Promise<boolean> {
    const patch = only ?? this.changed(section);
    for (const key of Object.keys(this.errors)) if (key === section || key.startsWith(section + '.')) delete this.errors[key];
    if (Object.keys(patch).length === 0) {
      this.saved[section] = true;
      return true;
    }
    this.saving[section] = true;
    this.saved[section] = false;
    try {
      const doc = await api.patch('/ui/settings', { body: { [section]: patch } });
      this.doc = doc;
      // keep unsaved edits of other sections
      const draft = clone(doc);
      for (const other of Object.keys(this.draft)) {
        if (other !== section && this.draft[other]) draft[other] = this.draft[other];
      }
      this.draft = draft;
      this.saved[section] = true;
      void effective.refresh();
      return true;
    } catch (error) {
      const message = messageOf(error);
      const named =
        error instanceof ApiError && error.status === 400
          ? Object.keys(patch).find((key) => message.includes(`${section}.${key}`) || message.includes(`\`${key}\``))
          : undefined;
      this.errors[named ? `${section}.${named}` : section] = message;
      return false;
    } finally {
      this.saving[section] = false;
    }
  }
}

export const form = new SettingsForm();

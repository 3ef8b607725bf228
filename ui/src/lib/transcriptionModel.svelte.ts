// Whether a transcription model is installed and in use, for the notices of
// the library and recording pages and the first-run guide; read again when a
// model is installed or the settings change.
import { api } from '../api/client';
import type { ModelEntry, ModelList } from '../api/types';
import { events } from './events.svelte';

/** The name a model is installed and chosen by: `base.en-q8_0`; a file the person added, its own name. */
export function modelName(m: ModelEntry): string {
  return m.quantization && !m.custom ? `${m.name}-${m.quantization}` : m.name;
}

class TranscriptionModel {
  list = $state<ModelList | null>(null);
  private listening = false;

  /** Known, and none would be used: recordings cannot be transcribed. */
  get missing(): boolean {
    return this.list !== null && this.list.active === null && !this.list.model_path_env;
  }

  async refresh(): Promise<void> {
    try {
      this.list = await api.get('/ui/models');
    } catch {
      // unknown: no notice rather than a wrong one
    }
  }

  /** Loads it once and keeps it current. */
  follow(): void {
    if (this.listening) return;
    this.listening = true;
    void this.refresh();
    for (const type of ['models.installed', 'settings.changed'] as const) events.on(type, () => void this.refresh());
  }
}

export const transcriptionModel = new TranscriptionModel();

// The effective settings (managed values wrapped), shared by the record card and Settings.
import { api } from '../api/client';
import type { Json, Managed, SettingsDoc } from '../api/routes';
import { events } from './events.svelte';

export type { Json };
export type Doc = SettingsDoc;

export function isManaged(value: unknown): value is Managed<Json> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { managed?: unknown }).managed === true &&
    'value' in value
  );
}

/** A settings.json value the service does not use, and why. */
export type InvalidSetting = { key: string; reason: string };

/** Effective settings (managed values wrapped), shared by the record card and Settings. */
class Effective {
  doc = $state<Doc | null>(null);

  field(section: string, key: string): { value: Json; managedBy: string | null } {
    const raw = this.doc?.[section]?.[key];
    if (isManaged(raw)) return { value: raw.value, managedBy: raw.managed_by };
    return { value: raw ?? null, managedBy: null };
  }

  /** Keys of settings.json whose values are not valid (their defaults apply). */
  get invalid(): InvalidSetting[] {
    const listed = (this.doc as { invalid?: unknown } | null)?.invalid;
    return Array.isArray(listed) ? (listed as InvalidSetting[]) : [];
  }

  async refresh(): Promise<void> {
    try {
      this.doc = await api.get('/ui/settings/effective');
    } catch {
      // not available: nothing is shown as managed
    }
  }

  /** Reads them again whenever settings.json changes (on this page, in another tab, by a program). */
  listen(): void {
    events.on('settings.changed', () => void this.refresh());
  }
}
export const effective = new Effective();

// Regenerating a meeting's notes: the dialog's choices (kind, template), the
// templates offered, and the request; `started` shows progress on the page.
import { api, ApiError, messageOf } from '../../api/client';
import type { Body } from '../../api/path';
import type { TemplateList } from '../../api/types';
import type { NoteKind } from '../../api/types';
import { progress } from '../../lib/live.svelte';
import type { MeetingPage } from './page';

export class Regeneration {
  private readonly page: MeetingPage;
  open = $state(false);
  kind = $state<NoteKind>('summary');
  template = $state('');
  templates = $state<TemplateList['templates']>([]);
  error = $state<{ text: string; pro: boolean } | null>(null);
  busy = $state(false);
  started = $state(false);
  /** The chosen kind's note is the person's: regenerating replaces it (asked first). */
  readonly replacesEdited = $derived(this.kind !== 'custom' && this.pageWrote(this.kind));

  constructor(page: MeetingPage) {
    this.page = page;
  }

  private pageWrote(kind: string): boolean {
    return this.page.personWrote(kind);
  }

  async show(): Promise<void> {
    this.error = null;
    this.open = true;
    try {
      const reply = await api.get('/ui/templates');
      this.templates = reply.templates;
      if (!this.template && this.templates.length) this.template = this.templates[0].id;
    } catch {
      this.templates = [];
    }
  }

  submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    this.busy = true;
    this.error = null;
    const body: Body<'/ui/meetings/{id}/notes', 'post'> = { kind: this.kind };
    if (this.kind === 'custom') {
      if (!this.template) {
        this.error = { text: 'Choose a template for custom notes.', pro: false };
        this.busy = false;
        return;
      }
      body.template_id = this.template;
    }
    try {
      await api.post('/ui/meetings/{id}/notes', { params: { id: this.page.id }, body });
      delete progress.notes[this.page.id];
      this.started = true;
      this.open = false;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'pro_required') {
        this.error = { text: 'Regenerating notes needs Recorder Pro.', pro: true };
      } else this.error = { text: messageOf(error), pro: false };
    } finally {
      this.busy = false;
    }
  };
}

// A question to the meetings (POST /ui/ask): all of them, those of a date
// range, or one meeting. The answer comes back whole, after a few seconds with
// a local model; a newer question makes an older reply moot.
import { api, messageOf } from '../api/client';
import type { AskAnswer, AskRequest } from '../api/types';

/** What the service answers when nothing in the meetings does. */
export const NOTHING_FOUND = 'Nothing in your meetings answers that.';

/** Which meetings a question is about: everything of the request but the question. */
export type AskScope = Omit<AskRequest, 'question'>;

export class Ask {
  question = $state('');
  busy = $state(false);
  reply = $state<AskAnswer | null>(null);
  error = $state('');
  private seq = 0;
  private readonly scope: () => AskScope;

  constructor(scope: () => AskScope) {
    this.scope = scope;
  }

  /** Asks the question in the field; one at a time (a second Enter while busy does nothing). */
  async submit(): Promise<void> {
    if (this.busy) return;
    const question = this.question.trim();
    this.reply = null;
    if (!question) {
      this.error = 'Type a question first.';
      return;
    }
    const seq = ++this.seq;
    this.busy = true;
    this.error = '';
    try {
      const reply = await api.post('/ui/ask', { body: { question, ...this.scope() } });
      if (seq === this.seq) this.reply = reply;
    } catch (error) {
      if (seq === this.seq) this.error = messageOf(error);
    } finally {
      if (seq === this.seq) this.busy = false;
    }
  }
}

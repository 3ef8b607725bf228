// Search by meaning, as the health check tells it: whether the embedding
// model is installed, and how many ready meetings are still being embedded in
// the background (read again every few seconds while any are).
import { api } from '../api/client';

const AGAIN_MS = 3000;

class Meaning {
  /** The embedding model is installed: searches can go by meaning, questions are answered by it. */
  available = $state(false);
  /** Ready meetings not embedded yet. */
  remaining = $state(0);
  private watchers = 0;
  /** Bumped when the first watcher comes: an older loop of reads ends. */
  private loop = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  async refresh(): Promise<void> {
    try {
      const health = await api.get('/ui/health');
      this.available = health.meaning?.available === true;
      this.remaining = health.meaning?.remaining ?? 0;
    } catch {
      // signed out or unreachable: the shell shows it; keep what was known
    }
  }

  /** Reads the state now, and again while meetings are being embedded; returns what stops it. */
  follow(): () => void {
    this.watchers += 1;
    if (this.watchers === 1) void this.read(++this.loop);
    return () => {
      this.watchers -= 1;
      if (this.watchers > 0) return;
      this.loop += 1;
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
    };
  }

  private async read(loop: number): Promise<void> {
    this.timer = null;
    await this.refresh();
    if (loop !== this.loop || !this.available || this.remaining === 0) return;
    this.timer = setTimeout(() => void this.read(loop), AGAIN_MS);
  }
}

export const meaning = new Meaning();

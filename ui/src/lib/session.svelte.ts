/** Whether the page has a session with the service (a 401 anywhere ends it). */
import { href } from '../api/path';

class Session {
  signedOut = $state(false);
  signOut(): void {
    this.signedOut = true;
  }
  /** Signs this session out on the service (its cookie dies there), then here. */
  async end(): Promise<void> {
    try {
      await fetch(href('/ui/logout'), { method: 'POST', credentials: 'same-origin' });
    } finally {
      this.signOut();
    }
  }
}
export const session = new Session();

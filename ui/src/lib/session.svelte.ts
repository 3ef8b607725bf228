/** Whether the page has a session with the service (a 401 anywhere ends it). */
class Session {
  signedOut = $state(false);
  signOut(): void {
    this.signedOut = true;
  }
}
export const session = new Session();

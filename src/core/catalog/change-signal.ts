/**
 * Set by a store after one of its own transactions commits. SQLite's data_version and PostgreSQL's
 * NOTIFY tell an instance about OTHER writers; this tells it about its own, so a key revoked
 * through this process fails on the very next request.
 */
export class ChangeSignal {
  private dirty = false;
  mark(): void {
    this.dirty = true;
  }
  take(): boolean {
    const was = this.dirty;
    this.dirty = false;
    return was;
  }
}

import type { DataState, StateStore } from '../ports.ts';

type Listener = (next: DataState, prev: DataState) => void;

/**
 * Keeps this instance's idea of the data and key versions current. Every request calls check():
 * when nothing may have changed it returns null without awaiting anything, so the hot path pays
 * one synchronous probe; otherwise it re-reads the versions and tells listeners (read model, key
 * cache, response cache) what moved.
 */
export class Freshness {
  private refreshing: Promise<void> | null = null;
  /** The last re-read failed: the change it was for is still to be read. */
  private unread = false;

  private constructor(
    private readonly store: StateStore,
    private current: DataState,
    private readonly listeners: Listener[] = [],
  ) {}

  static async start(store: StateStore): Promise<Freshness> {
    return new Freshness(store, await store.read());
  }

  get state(): DataState {
    return this.current;
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  check(): Promise<void> | null {
    if (this.refreshing) return this.refreshing;
    if (!this.store.externalChangeSuspected() && !this.unread) return null;
    return this.refresh();
  }

  refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    // The read below sees every commit signalled until now, so those signals are taken here: after
    // this instance's own write (afterWrite calls refresh), the next request does not read the
    // same state again, and the fast path answers it.
    this.store.externalChangeSuspected();
    this.refreshing = (async () => {
      try {
        let next: DataState;
        try {
          next = await this.store.read();
        } catch (e) {
          this.unread = true;
          throw e;
        }
        this.unread = false;
        const prev = this.current;
        this.current = next;
        if (next.dataVersion !== prev.dataVersion || next.keysVersion !== prev.keysVersion) {
          for (const l of this.listeners) l(next, prev);
        }
      } finally {
        this.refreshing = null;
      }
    })();
    // Callers that only probe (the fast path declines and moves on, a route that is not a variant's)
    // drop the promise; a failed read (the database restarting) must not then end the process as an
    // unhandled rejection. Callers that await it still see the error.
    this.refreshing.catch(() => undefined);
    return this.refreshing;
  }
}

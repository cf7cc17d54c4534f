import { isStoreUnavailable, StoreUnavailableError } from '../errors.ts';
import type { DataState, StateStore } from '../ports.ts';

type Listener = (next: DataState, prev: DataState) => void;

/**
 * While the store cannot be reached, how often a request starts another re-read (in the
 * background: no request waits for it). The first after the store is back ends the outage.
 */
const OUTAGE_RETRY_MS = 250;

/**
 * The most a re-read of the versions may take before the store counts as unreachable. Every
 * request waits for a re-read that is due, so a database that stops answering without closing
 * its connections (a partition) would otherwise hold every request, cached reads included, for as
 * long as TCP takes to give up. The read is one indexed row: seconds mean the store is not there.
 */
const READ_LIMIT_MS = 2_000;

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
  /**
   * The last re-read failed because the store is unreachable (StoreUnavailableError). Requests are
   * then served from the versions last read (the read model and cached bodies in memory) instead of
   * failing; what needs the store answers 503 by itself. Writes cannot commit meanwhile, so what
   * may be missed is only a change committed just before the outage and not yet read.
   */
  private outage = false;
  /** When, in epoch ms, the next re-read may start during an outage. */
  private retryAt = 0;

  private readonly listeners: Listener[] = [];

  private constructor(
    private readonly store: StateStore,
    private current: DataState,
    private readonly readLimitMs: number,
  ) {}

  static async start(store: StateStore, opts: { readLimitMs?: number } = {}): Promise<Freshness> {
    return new Freshness(store, await store.read(), opts.readLimitMs ?? READ_LIMIT_MS);
  }

  get state(): DataState {
    return this.current;
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  check(): Promise<void> | null {
    if (this.refreshing) return this.outage ? null : this.refreshing;
    if (this.outage) {
      // Served from what is held; a re-read every OUTAGE_RETRY_MS, awaited by nobody.
      if (Date.now() >= this.retryAt) void this.refresh();
      return null;
    }
    if (!this.store.externalChangeSuspected() && !this.unread) return null;
    return this.refresh();
  }

  /** Whether the last re-read found the store unreachable (diagnostics, tests). */
  get storeUnreachable(): boolean {
    return this.outage;
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
          next = await this.readWithinLimit();
        } catch (e) {
          this.unread = true;
          if (!isStoreUnavailable(e)) throw e;
          // Not an error of the caller's: a write that committed stays a success (its change is
          // read when the store is back), and a read is served from what is held.
          this.outage = true;
          this.retryAt = Date.now() + OUTAGE_RETRY_MS;
          return;
        }
        this.unread = false;
        this.outage = false;
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

  /**
   * Reads the state again in a read that begins after this call: refresh() may return a read that
   * began earlier (one in flight), which misses a commit another connection made meanwhile (the
   * CoA store thread's, storage/thread/).
   */
  async refreshFromNow(): Promise<void> {
    const inFlight = this.refreshing;
    if (inFlight) await inFlight.catch(() => undefined);
    return this.refresh();
  }

  /** store.read(), or StoreUnavailableError once readLimitMs has passed (the late answer is dropped). */
  private readWithinLimit(): Promise<DataState> {
    const read = this.store.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new StoreUnavailableError()), this.readLimitMs);
    });
    read.catch(() => undefined);
    return Promise.race([read, limit]).finally(() => clearTimeout(timer));
  }
}

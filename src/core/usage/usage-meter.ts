import { type Clock, DAY_MS, HOUR_MS } from '../clock.ts';
import type { RateLimitScope } from '../ratelimit/model.ts';
import type { UsageRecorder } from './model.ts';
import type { UsagePending, UsageRow, UsageStore } from './ports.ts';

/** Usage is kept this many whole UTC days before today (DESIGN.md §6: 90 days). */
export const USAGE_RETENTION_DAYS = 90;

const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
const DEFAULT_PRUNE_INTERVAL_MS = HOUR_MS;
/**
 * Cells held at most. A cell exists only for a valid key that made a request since the last flush
 * or two (idle ones are let go at each flush), and is ~150 bytes with its map entry: 100,000 cells
 * are ~15 MB. Beyond it, counts go to a sink that is dropped (and said so) until a flush makes room.
 */
const DEFAULT_MAX_CELLS = 100_000;

/**
 * One key's counts in one variant and one UTC hour since the last flush, mutated in place on the
 * request path. A holder (the admission's lane) keeps its cell and compares the request's time with
 * `endMs` once: past it (the hour turned, or the meter let go of the cell: -1), it asks for another.
 */
export class UsageCell {
  requests = 0;
  limited = 0;
  /** Epoch ms of the last request counted or refused here; 0 = none. */
  lastAt = 0;
  /** lastAt as last written: a cell with nothing new since then is idle. */
  writtenAt = 0;
  endMs: number;
  constructor(
    readonly keyId: string,
    readonly scope: RateLimitScope,
    /** Epoch hours. */
    readonly hour: number,
  ) {
    this.endMs = (hour + 1) * HOUR_MS;
  }
}

/**
 * What a holder starts with: its end is before any time, so the holder asks for a real cell before
 * counting. (Not frozen: one shape for every cell a holder may hold.)
 */
export const DETACHED_CELL: UsageCell = new UsageCell('', 'a', -1);
DETACHED_CELL.endMs = -1;

export interface UsageMeterDeps {
  clock: Clock;
  /** Where counts are flushed; without one they are kept in memory only until the next flush. */
  store?: UsageStore;
  /** Default 5 s. */
  flushIntervalMs?: number;
  /** How often rows past the retention are deleted. Default 1 h. */
  pruneIntervalMs?: number;
  maxCells?: number;
  /** Errors of background flushes and dropped counts (the timer has no caller). Default: a process warning. */
  onError?: (err: unknown) => void;
}

/**
 * Usage per key, variant and hour, recorded off the hot path (DESIGN.md §6): counters in memory,
 * incremented synchronously by the admission decision (counted, refused with 429) and decremented
 * by a refund (a 304), flushed every few seconds as additive upserts (UsageStore.add) so several
 * instances add up, and on close. Never I/O on the request path; nothing allocated per request once
 * a key's cell for the hour exists.
 */
export class UsageMeter implements UsageRecorder, UsagePending {
  private readonly clock: Clock;
  private readonly store: UsageStore | undefined;
  private readonly maxCells: number;
  private readonly pruneIntervalMs: number;
  private readonly onError: (err: unknown) => void;
  /** The newest cell of each key, per variant (looked up by key id alone: no string is built). */
  private readonly current: Record<RateLimitScope, Map<string, UsageCell>> = { a: new Map(), b: new Map() };
  /** Cells of earlier hours still to write (the hour turned, or a refund of an earlier hour's request). */
  private readonly earlier = new Map<string, UsageCell>();
  private cellCount = 0;
  /** Counts that found no room (over maxCells), discarded at the next flush. */
  private readonly sink = new UsageCell('', 'a', -1);
  /** Rows being written: still shown by pending() until the store has them. */
  private inflight: UsageRow[] = [];
  private lastPruneMs = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private timerFlushRunning = false;
  private flushTail: Promise<void> = Promise.resolve();
  private overflowFlushQueued = false;

  constructor(deps: UsageMeterDeps) {
    this.clock = deps.clock;
    this.store = deps.store;
    this.maxCells = deps.maxCells ?? DEFAULT_MAX_CELLS;
    this.pruneIntervalMs = deps.pruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS;
    this.onError = deps.onError ?? defaultOnError;
    this.sink.endMs = -1;
    this.timer = setInterval(() => this.onTimer(), deps.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS);
    // A pending flush must not keep the process alive; close() does the last one.
    this.timer.unref();
  }

  /** Cells held now (for the tests that attack the bound). */
  get size(): number {
    return this.cellCount;
  }

  /**
   * The cell of (key, variant) for the hour of `atMs`, created if needed. Returns the sink when the
   * meter is full; its counts are dropped. The sink's end is -1, so a holder asks again next time.
   */
  cell(keyId: string, scope: RateLimitScope, atMs: number): UsageCell {
    const hour = Math.floor(atMs / HOUR_MS);
    const map = this.current[scope];
    const held = map.get(keyId);
    if (held !== undefined) {
      if (held.hour === hour) return held;
      // An earlier hour's refund (or the clock stepped back): a cell of that hour, apart.
      if (held.hour > hour) return this.earlierCell(keyId, scope, hour);
      // A new hour: the previous one waits among the earlier cells for the flush, if it holds anything.
      map.delete(keyId);
      if (isIdle(held)) this.letGo(held);
      else this.earlier.set(earlierKey(keyId, scope, held.hour), held);
    }
    if (this.cellCount >= this.maxCells) return this.overflow();
    const fresh = new UsageCell(keyId, scope, hour);
    map.set(keyId, fresh);
    this.cellCount++;
    return fresh;
  }

  counted(keyId: string, scope: RateLimitScope, nowMs: number): void {
    const c = this.cell(keyId, scope, nowMs);
    c.requests++;
    if (nowMs > c.lastAt) c.lastAt = nowMs;
  }

  /** `nowMs` is the refunded hit's time: the request is taken off the hour that counted it. */
  refunded(keyId: string, scope: RateLimitScope, nowMs: number): void {
    this.cell(keyId, scope, nowMs).requests--;
  }

  limited(keyId: string, scope: RateLimitScope, nowMs: number): void {
    const c = this.cell(keyId, scope, nowMs);
    c.limited++;
    if (nowMs > c.lastAt) c.lastAt = nowMs;
  }

  pending(keyIds: ReadonlySet<string>): UsageRow[] {
    const out: UsageRow[] = [];
    const add = (c: UsageCell): void => {
      if (keyIds.has(c.keyId) && !isIdle(c)) out.push(rowOf(c));
    };
    for (const c of this.current.a.values()) add(c);
    for (const c of this.current.b.values()) add(c);
    for (const c of this.earlier.values()) add(c);
    for (const row of this.inflight) if (keyIds.has(row.keyId)) out.push({ ...row });
    return out;
  }

  /** Writes what was counted since the last flush, one flush at a time; prunes old rows when due. */
  flush(): Promise<void> {
    const run = this.flushTail.then(() => this.flushOnce());
    this.flushTail = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private earlierCell(keyId: string, scope: RateLimitScope, hour: number): UsageCell {
    const k = earlierKey(keyId, scope, hour);
    let c = this.earlier.get(k);
    if (c === undefined) {
      if (this.cellCount >= this.maxCells) return this.overflow();
      c = new UsageCell(keyId, scope, hour);
      this.earlier.set(k, c);
      this.cellCount++;
    }
    return c;
  }

  private overflow(): UsageCell {
    if (!this.overflowFlushQueued) {
      this.overflowFlushQueued = true;
      // A flush lets go of idle cells and written earlier hours: room for the keys in use.
      setImmediate(() => {
        this.overflowFlushQueued = false;
        this.flush().catch(this.onError);
      });
    }
    return this.sink;
  }

  private letGo(c: UsageCell): void {
    c.endMs = -1;
    this.cellCount--;
  }

  private async flushOnce(): Promise<void> {
    const now = this.clock.now();
    const hourNow = Math.floor(now / HOUR_MS);
    const rows: UsageRow[] = [];
    const take = (c: UsageCell): boolean => {
      if (isIdle(c)) return false;
      rows.push(rowOf(c));
      c.requests = 0;
      c.limited = 0;
      c.writtenAt = c.lastAt;
      return true;
    };
    for (const map of [this.current.a, this.current.b]) {
      for (const [keyId, c] of map) {
        // Idle since the last flush, or an hour that is over: let go (its holder asks for another).
        if (!take(c) || c.hour < hourNow) {
          map.delete(keyId);
          this.letGo(c);
        }
      }
    }
    for (const c of this.earlier.values()) {
      take(c);
      this.letGo(c);
    }
    this.earlier.clear();
    const dropped = this.sink.requests + this.sink.limited;
    this.sink.requests = 0;
    this.sink.limited = 0;
    if (dropped !== 0)
      this.onError(
        new Error(`usage meter full (${this.maxCells} cells): ${dropped} counts were not recorded`),
      );
    if (this.store && rows.length > 0) {
      this.inflight = rows;
      try {
        await this.store.add(rows);
      } catch (err) {
        // Back into memory (adding to what arrived meanwhile), so the next flush retries them.
        for (const r of rows) this.addBack(r);
        throw err;
      } finally {
        this.inflight = [];
      }
    }
    if (this.store && now - this.lastPruneMs >= this.pruneIntervalMs) {
      this.lastPruneMs = now;
      await this.store.prune(retainedFromHour(now));
    }
  }

  private addBack(r: UsageRow): void {
    const c = this.cell(r.keyId, r.scope, r.hour * HOUR_MS);
    c.requests += r.requests;
    c.limited += r.limited;
    if (r.lastAt !== null && r.lastAt > c.lastAt) c.lastAt = r.lastAt;
    // Written again even if only its time is left to write.
    if (c.writtenAt === c.lastAt) c.writtenAt = -1;
  }

  private onTimer(): void {
    // Skip a tick while the previous flush still runs rather than queueing flushes behind a slow store.
    if (this.timerFlushRunning) return;
    this.timerFlushRunning = true;
    this.flush()
      .catch(this.onError)
      .finally(() => {
        this.timerFlushRunning = false;
      });
  }
}

/** The first hour kept: today (UTC) and the USAGE_RETENTION_DAYS whole days before it. */
export const retainedFromHour = (nowMs: number): number =>
  (Math.floor(nowMs / DAY_MS) - USAGE_RETENTION_DAYS) * 24;

const isIdle = (c: UsageCell): boolean => c.requests === 0 && c.limited === 0 && c.lastAt === c.writtenAt;

const rowOf = (c: UsageCell): UsageRow => ({
  keyId: c.keyId,
  scope: c.scope,
  hour: c.hour,
  requests: c.requests,
  limited: c.limited,
  lastAt: c.lastAt === 0 ? null : c.lastAt,
});

const earlierKey = (keyId: string, scope: RateLimitScope, hour: number): string => `${scope}${hour}:${keyId}`;

const defaultOnError = (err: unknown): void => {
  process.emitWarning(`usage flush failed: ${err instanceof Error ? err.message : String(err)}`);
};

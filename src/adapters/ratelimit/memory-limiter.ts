import type { Clock } from '../../core/clock.ts';
import type {
  RateLimitDecision,
  RateLimiter,
  RateLimitHit,
  RateLimitHitCount,
  RateLimitOutcome,
  RateLimitPolicy,
  RateLimitScope,
  RateLimitSlot,
  RateLimitStateStore,
} from '../../core/ratelimit/model.ts';
import { countRestoredIn, KeyState, type RestoredHits, restoredHitMs, restoreInto } from './key-state.ts';

export interface MemoryRateLimiterDeps {
  clock: Clock;
  /** Where hits are persisted so quotas survive a restart. Without it the state lives only in memory. */
  stateStore?: RateLimitStateStore;
  /** How often pending hits are written to the store (DESIGN.md §4: at least every second). */
  flushIntervalMs?: number;
  /** The longest window any policy uses; bounds what is restored and kept. Default 24 h. */
  maxWindowMs?: number;
  /** How often idle keys are dropped from memory and old rows pruned from the store. Default 1 min. */
  pruneIntervalMs?: number;
  /** Errors of background flushes (the timer has no caller to throw to). Default: a process warning. */
  onError?: (err: unknown) => void;
}

const DEFAULT_FLUSH_INTERVAL_MS = 1000;
const DEFAULT_MAX_WINDOW_MS = 86_400_000;
const DEFAULT_PRUNE_INTERVAL_MS = 60_000;

/**
 * Exact rate limiting in one process. Decisions are made synchronously (Node runs one at a time), so
 * concurrent requests at the edge can never over-admit. Hits are aggregated per (key, scope, second)
 * and written to the state store on a timer; on start `load()` restores them.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly clock: Clock;
  private readonly store: RateLimitStateStore | undefined;
  private readonly maxWindowMs: number;
  private readonly pruneIntervalMs: number;
  private readonly onError: (err: unknown) => void;
  // One map per scope: looking up by scope then key avoids building a composite string per request.
  private readonly states: Record<RateLimitScope, Map<string, KeyState>> = { a: new Map(), b: new Map() };
  /** States with pending counts to write. */
  private dirty: KeyState[] = [];
  /** Last seq issued; seqs start at 1 (0 marks restored hits, which are never refunded). */
  private seq = 0;
  private loaded = false;
  private lastPruneMs: number;
  private timer: NodeJS.Timeout | null = null;
  private timerFlushRunning = false;
  /** Flushes run one after another so a retry never races a newer write. */
  private flushTail: Promise<void> = Promise.resolve();
  /**
   * The last decision's numbers, filled in place: the hot path (consumeSlotSync) hands this object
   * out instead of allocating one per request. Read it before the limiter's next call.
   */
  private readonly last = {
    allowed: false,
    limit: 0,
    remaining: 0,
    resetAtMs: 0,
    retryAfterMs: 0,
    atMs: 0,
    seq: 0,
  };

  constructor(deps: MemoryRateLimiterDeps) {
    this.clock = deps.clock;
    this.store = deps.stateStore;
    this.maxWindowMs = deps.maxWindowMs ?? DEFAULT_MAX_WINDOW_MS;
    this.pruneIntervalMs = deps.pruneIntervalMs ?? DEFAULT_PRUNE_INTERVAL_MS;
    this.onError = deps.onError ?? defaultOnError;
    this.lastPruneMs = this.clock.now();
    // Without a store the timer only sweeps idle keys, so it can run as rarely as pruning.
    const interval = this.store ? (deps.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS) : this.pruneIntervalMs;
    this.timer = setInterval(() => this.onTimer(), interval);
    // A pending flush must not keep the process alive; close() does the final one.
    this.timer.unref();
  }

  /** Constructs a limiter and restores its state from the store before it serves any request. */
  static async open(deps: MemoryRateLimiterDeps): Promise<MemoryRateLimiter> {
    const limiter = new MemoryRateLimiter(deps);
    try {
      await limiter.load();
    } catch (err) {
      limiter.stopTimer();
      throw err;
    }
    return limiter;
  }

  /**
   * Restores hits of the last `maxWindowMs` from the store. Must run before the first request: merging
   * restored hits into live counters would need the policy, which only requests carry.
   */
  async load(): Promise<void> {
    if (this.loaded || this.seq > 0) throw new Error('MemoryRateLimiter.load() must run once, before use');
    this.loaded = true;
    if (!this.store) return;
    const now = this.clock.now();
    const rows = await this.store.loadHits(Math.floor((now - this.maxWindowMs) / 1000));
    // Sum per (scope, key, second): the contract allows several rows for one second.
    const sums = new Map<KeyState, Map<number, number>>();
    for (const row of rows) {
      const state = this.stateFor(row.keyId, row.scope);
      let perSecond = sums.get(state);
      if (!perSecond) {
        perSecond = new Map();
        sums.set(state, perSecond);
      }
      perSecond.set(row.second, (perSecond.get(row.second) ?? 0) + row.count);
    }
    for (const [state, perSecond] of sums) {
      const restored: RestoredHits = { atMs: [], counts: [] };
      for (const second of [...perSecond.keys()].sort((x, y) => x - y)) {
        const count = perSecond.get(second)!;
        if (count <= 0) continue; // fully refunded
        // Seconds that end after `now` all land on it; entries at one time may repeat, harmlessly.
        restored.atMs.push(restoredHitMs(second, now));
        restored.counts.push(count);
      }
      if (restored.atMs.length > 0) state.restored = restored;
      else {
        this.states[state.scope].delete(state.keyId);
        state.detached = true;
      }
    }
  }

  consume(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    try {
      return Promise.resolve(this.consumeSync(keyId, scope, policy));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The synchronous core of consume(), for callers that want to skip a promise on the hot path. */
  consumeSync(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): RateLimitDecision {
    this.checkPolicy(policy);
    const state = this.stateFor(keyId, scope);
    const now = this.clock.now();
    this.decide(state, policy, now, true);
    return this.decision(state, now, true);
  }

  slotSync(keyId: string, scope: RateLimitScope): RateLimitSlot {
    return this.stateFor(keyId, scope);
  }

  consumeSlotSync(slot: RateLimitSlot, policy: RateLimitPolicy): RateLimitOutcome | null {
    this.checkPolicy(policy);
    // Only this limiter issues slots, and they are its key states.
    const held = slot as KeyState;
    const state = held.detached ? this.stateFor(held.keyId, held.scope) : held;
    const now = this.clock.now();
    this.decide(state, policy, now, true);
    const last = this.last;
    if (!last.allowed) return null;
    // What identifies the hit, for a caller that may refund it (a 304), without allocating one.
    last.atMs = now;
    last.seq = this.seq;
    return last;
  }

  peek(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    try {
      return Promise.resolve(this.peekSync(keyId, scope, policy));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  peekSync(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): RateLimitDecision {
    this.checkPolicy(policy);
    const now = this.clock.now();
    const state = this.states[scope].get(keyId);
    // An unknown key has used nothing; creating state for it would let peeks grow memory.
    if (!state) return unused(policy, now);
    this.decide(state, policy, now, false);
    return this.decision(state, now, false);
  }

  refund(hit: RateLimitHit, policy: RateLimitPolicy): Promise<void> {
    const state = this.states[hit.scope].get(hit.keyId);
    // Seqs start at 1 and anything above this.seq was not issued here.
    if (!state || hit.seq < 1 || hit.seq > this.seq) return Promise.resolve();
    if (policy.kind === 'rolling') {
      this.refundRolling(state, hit, policy.windowMs);
      return Promise.resolve();
    }
    if (state.windowStartMs < 0 || state.windowMs !== policy.windowMs || hit.seq < state.windowFirstSeq)
      return Promise.resolve();
    // A hit from an earlier window no longer matters: that window is over.
    if (hit.atMs < state.windowStartMs || hit.atMs >= state.windowStartMs + state.windowMs)
      return Promise.resolve();
    if (state.windowRefunded?.has(hit.seq)) return Promise.resolve();
    state.windowRefunded ??= new Set();
    state.windowRefunded.add(hit.seq);
    if (state.windowCount > 0) state.windowCount--;
    this.addPending(state, hit.atMs, -1);
    return Promise.resolve();
  }

  flush(): Promise<void> {
    const run = this.flushTail.then(() => this.flushOnce());
    this.flushTail = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.stopTimer();
    await this.flush();
  }

  /** Decides for one key; the outcome is left in `this.last` (and `this.seq` is the hit's, when counted). */
  private decide(state: KeyState, policy: RateLimitPolicy, now: number, count: boolean): void {
    if (policy.kind === 'rolling') this.decideRolling(state, policy, now, count);
    else this.decideFixed(state, policy, now, count);
  }

  /** A decision object from `this.last`, with the hit to refund when one was counted. */
  private decision(state: KeyState, now: number, counted: boolean): RateLimitDecision {
    const { allowed, limit, remaining, resetAtMs, retryAfterMs } = this.last;
    if (!(counted && allowed)) return { allowed, limit, remaining, resetAtMs, retryAfterMs };
    const hit: RateLimitHit = { keyId: state.keyId, scope: state.scope, atMs: now, seq: this.seq };
    return { allowed, limit, remaining, resetAtMs, retryAfterMs, hit };
  }

  private decideRolling(state: KeyState, policy: RateLimitPolicy, now: number, count: boolean): void {
    const { limit, windowMs } = policy;
    const last = this.last;
    last.limit = limit;
    // The state is its own ring (KeyState extends HitRing).
    const ring = state;
    if (state.restored !== null) {
      restoreInto(ring, state.restored, now - windowMs, limit);
      state.restored = null;
    }
    ring.evictUpTo(now - windowMs);
    const n = ring.size;
    if (n < limit) {
      last.allowed = true;
      last.retryAfterMs = 0;
      if (!count) {
        last.remaining = limit - n;
        last.resetAtMs = (n > 0 ? ring.timeAt(0) : now) + windowMs;
        return;
      }
      this.seq++;
      ring.push(now);
      this.addPending(state, now, 1);
      last.remaining = limit - n - 1;
      last.resetAtMs = ring.timeAt(0) + windowMs;
      return;
    }
    // Room appears when the hit at index n - limit leaves; with exactly `limit` hits that is the oldest.
    const i = n - limit;
    last.allowed = false;
    last.remaining = 0;
    last.retryAfterMs = i < n ? ring.timeAt(i) + windowMs - now : windowMs;
    last.resetAtMs = (n > 0 ? ring.timeAt(0) : now) + windowMs;
  }

  private decideFixed(state: KeyState, policy: RateLimitPolicy, now: number, count: boolean): void {
    const { limit, windowMs } = policy;
    const last = this.last;
    const startMs = Math.floor(now / windowMs) * windowMs;
    last.limit = limit;
    last.resetAtMs = startMs + windowMs;
    if (state.windowStartMs !== startMs || state.windowMs !== windowMs)
      this.startWindow(state, startMs, windowMs);
    if (state.windowCount < limit) {
      last.allowed = true;
      last.retryAfterMs = 0;
      if (count) {
        state.windowCount++;
        this.seq++;
        this.addPending(state, now, 1);
      }
      last.remaining = limit - state.windowCount;
      return;
    }
    last.allowed = false;
    last.remaining = 0;
    last.retryAfterMs = last.resetAtMs - now;
  }

  /** Starts a fixed window: the counter is reused, so a new hour allocates nothing. */
  private startWindow(state: KeyState, startMs: number, windowMs: number): void {
    state.windowCount = countRestoredIn(state.restored, startMs, windowMs);
    state.restored = null;
    state.windowStartMs = startMs;
    state.windowMs = windowMs;
    state.windowFirstSeq = this.seq + 1;
    state.windowRefunded?.clear();
  }

  private stateFor(keyId: string, scope: RateLimitScope): KeyState {
    const map = this.states[scope];
    let state = map.get(keyId);
    if (state === undefined) {
      state = new KeyState(keyId, scope);
      map.set(keyId, state);
    }
    return state;
  }

  private checkPolicy(policy: RateLimitPolicy): void {
    // Longer windows would be cut short by pruning and restore, silently over-admitting.
    if (!(policy.windowMs > 0 && policy.windowMs <= this.maxWindowMs)) {
      throw new RangeError(`rate-limit window ${policy.windowMs} ms is outside 1..${this.maxWindowMs} ms`);
    }
  }

  /**
   * Un-counts a rolling-window hit once. The ring holds times only, and hits at the same millisecond
   * are interchangeable, so removing one at the hit's time is exact; the seq only guards against a
   * second refund of the same hit.
   */
  private refundRolling(state: KeyState, hit: RateLimitHit, windowMs: number): void {
    const cutoff = this.clock.now() - windowMs;
    // A hit that has left the window no longer counts: nothing to refund.
    if (hit.atMs <= cutoff || state.size === 0) return;
    const refunded = state.refundedSeqs;
    if (refunded?.has(hit.seq)) return;
    if (!state.removeAt(hit.atMs)) return;
    if (refunded === null) state.refundedSeqs = new Map([[hit.seq, hit.atMs]]);
    else {
      for (const [seq, atMs] of refunded) if (atMs <= cutoff) refunded.delete(seq);
      refunded.set(hit.seq, hit.atMs);
    }
    this.addPending(state, hit.atMs, -1);
  }

  private addPending(state: KeyState, atMs: number, delta: number): void {
    if (!this.store) return;
    const second = Math.floor(atMs / 1000);
    if (second === state.pendingSecond) state.pendingCount += delta;
    else if (second > state.pendingSecond) {
      // The request path: a new second. The previous one, if not yet written, moves aside.
      if (state.pendingCount !== 0) addTo(state, state.pendingSecond, state.pendingCount);
      state.pendingSecond = second;
      state.pendingCount = delta;
    } else addTo(state, second, delta); // a refund of an older second, or the clock stepped back
    if (!state.queued) {
      state.queued = true;
      this.dirty.push(state);
    }
  }

  private async flushOnce(): Promise<void> {
    if (this.store) await this.writePending(this.store);
    await this.maybePrune();
  }

  private async writePending(store: RateLimitStateStore): Promise<void> {
    const batch = this.dirty;
    this.dirty = [];
    const rows: RateLimitHitCount[] = [];
    // A hit refunded before it was written cancels out and costs no row.
    const add = (state: KeyState, second: number, count: number): void => {
      if (count !== 0) rows.push({ keyId: state.keyId, scope: state.scope, second, count });
    };
    for (const state of batch) {
      state.queued = false;
      if (state.pendingOlder) {
        for (const [second, count] of state.pendingOlder) add(state, second, count);
        state.pendingOlder.clear();
      }
      add(state, state.pendingSecond, state.pendingCount);
      state.pendingCount = 0;
    }
    if (rows.length === 0) return;
    try {
      await store.addHits(rows);
    } catch (err) {
      // Put the counts back (adding to any that arrived meanwhile) so the next flush retries them.
      for (const row of rows) {
        const state = this.stateFor(row.keyId, row.scope);
        this.addPending(state, row.second * 1000, row.count);
      }
      throw err;
    }
  }

  private async maybePrune(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPruneMs < this.pruneIntervalMs) return;
    this.lastPruneMs = now;
    this.sweep(now);
    if (this.store) await this.store.pruneHits(Math.floor((now - this.maxWindowMs) / 1000));
  }

  /** Drops keys with nothing left to count, so memory follows active keys, not every key ever seen. */
  private sweep(now: number): void {
    const cutoff = now - this.maxWindowMs;
    for (const map of [this.states.a, this.states.b]) {
      for (const [keyId, state] of map) {
        state.evictUpTo(cutoff);
        const ringIdle = state.size === 0;
        const fixedIdle = state.windowStartMs < 0 || state.windowStartMs + state.windowMs <= now;
        const restored = state.restored;
        if (restored !== null && restored.atMs[restored.atMs.length - 1]! <= cutoff) {
          state.restored = null;
        }
        if (ringIdle && fixedIdle && state.restored === null && !state.queued) {
          map.delete(keyId);
          state.detached = true;
        }
      }
    }
  }

  private onTimer(): void {
    // Skip a tick while the previous flush is still running rather than queueing flushes behind a slow store.
    if (this.timerFlushRunning) return;
    this.timerFlushRunning = true;
    this.flush()
      .catch(this.onError)
      .finally(() => {
        this.timerFlushRunning = false;
      });
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Adds to a second other than the key's current one. */
function addTo(state: KeyState, second: number, delta: number): void {
  state.pendingOlder ??= new Map();
  state.pendingOlder.set(second, (state.pendingOlder.get(second) ?? 0) + delta);
}

const unused = (policy: RateLimitPolicy, now: number): RateLimitDecision => ({
  allowed: policy.limit > 0,
  limit: policy.limit,
  remaining: Math.max(0, policy.limit),
  resetAtMs:
    policy.kind === 'fixed'
      ? Math.floor(now / policy.windowMs) * policy.windowMs + policy.windowMs
      : now + policy.windowMs,
  retryAfterMs: policy.limit > 0 ? 0 : policy.windowMs,
});

const defaultOnError = (err: unknown): void => {
  process.emitWarning(
    `rate-limit state flush failed, will retry: ${err instanceof Error ? err.message : String(err)}`,
  );
};

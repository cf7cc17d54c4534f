/**
 * Rate limiting as the core sees it. Counting is per key and per variant ("scope"), so Variant A's
 * hourly quota and Variant B's daily quota never share a counter.
 */
export type RateLimitScope = 'a' | 'b';

/** How a quota is counted. */
export type RateLimitPolicy =
  /** Fixed windows aligned to the UTC epoch (e.g. the UTC hour for windowMs = 3 600 000). */
  | { kind: 'fixed'; limit: number; windowMs: number }
  /** Exact rolling window: at most `limit` admitted requests in any span of `windowMs`. */
  | { kind: 'rolling'; limit: number; windowMs: number };

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one (0 when denied). */
  remaining: number;
  /** Unix ms when the window resets (fixed) or the oldest counted request leaves it (rolling). */
  resetAtMs: number;
  /** When denied: ms until a request would be admitted. 0 when allowed. */
  retryAfterMs: number;
  /**
   * Identifies the counted hit so it can be refunded (a 304 is not counted, DESIGN.md §4).
   * Absent when denied.
   */
  hit?: RateLimitHit;
}

export interface RateLimitHit {
  keyId: string;
  scope: RateLimitScope;
  atMs: number;
  /** Unique per hit, so a refund removes exactly this one. */
  seq: number;
}

/**
 * One key's counter in one scope, looked up once and kept by a caller that decides for the same key
 * again and again (the fast path, decision 0011), so later decisions skip the lookup. Opaque: only
 * the limiter that issued it may be given it back. `detached` turns true when the limiter dropped
 * the counter (an idle key); a detached slot still decides correctly, but the caller should ask for
 * a new one.
 */
export interface RateLimitSlot {
  readonly keyId: string;
  readonly scope: RateLimitScope;
  readonly detached: boolean;
}

/** An admitted request's numbers, for the response headers. */
export interface RateLimitOutcome {
  readonly limit: number;
  readonly remaining: number;
  readonly resetAtMs: number;
  /** The counted hit's time and seq: with the slot's key and scope, the RateLimitHit to refund. */
  readonly atMs: number;
  readonly seq: number;
}

/**
 * The port. Implementations: in-memory (persisted to the store, at least every second) and Redis
 * (shared across instances). consume() is atomic: concurrent requests at the edge never over-admit.
 */
export interface RateLimiter {
  consume(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision>;
  /** Un-count a hit that turned out not to count (e.g. a 304). Idempotent. */
  refund(hit: RateLimitHit, policy: RateLimitPolicy): Promise<void>;
  /** Current usage without counting (for dashboards and headers on uncounted responses). */
  peek(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision>;
  /** A round trip to the server behind the limiter, for readiness; absent when it decides in memory. */
  ping?(): Promise<void>;
  /**
   * Synchronous forms, offered by limiters that decide in memory: the request hot path then
   * needs no promise at all. Absent on limiters that must ask a server (Redis).
   */
  consumeSync?(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): RateLimitDecision;
  peekSync?(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): RateLimitDecision;
  /** The slot of (key, scope), for callers that keep it (synchronous limiters only). */
  slotSync?(keyId: string, scope: RateLimitScope): RateLimitSlot;
  /**
   * consumeSync() through a slot, for the hottest path: the same decision, counted the same way, but
   * no hit to refund (callers that may refund use consume()) and nothing allocated. Returns the
   * numbers of an admitted request, valid until the limiter's next call, or null when denied
   * (nothing counted).
   */
  consumeSlotSync?(slot: RateLimitSlot, policy: RateLimitPolicy): RateLimitOutcome | null;
  /**
   * A counted admission made now without I/O, when the limiter can make one (the Redis limiter,
   * from a lease of tokens it holds: decision 0022); else null, nothing counted, and consume()
   * decides. Never a refusal: those are consume()'s.
   */
  consumeLocal?(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): RateLimitDecision | null;
  /** Persist pending state now (called on a timer and at shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Persistence of in-memory limiter state in the main store, so quotas survive a restart.
 * Hits are kept aggregated per (key, scope, second): a restored hit is treated as happening at the
 * END of its second, so a restart can only make the limiter stricter, never over-admit.
 */
export interface RateLimitHitCount {
  keyId: string;
  scope: RateLimitScope;
  /** Unix seconds. */
  second: number;
  count: number;
}

export interface RateLimitStateStore {
  /** Add counts (upsert-add per key/scope/second). Negative counts record refunds. */
  addHits(counts: RateLimitHitCount[]): Promise<void>;
  /** All counts at or after `sinceSecond`, oldest first. */
  loadHits(sinceSecond: number): Promise<RateLimitHitCount[]>;
  /** Drop counts older than `beforeSecond`. */
  pruneHits(beforeSecond: number): Promise<void>;
}

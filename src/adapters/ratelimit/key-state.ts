import type { RateLimitScope } from '../../core/ratelimit/model.ts';
import { HitRing } from './hit-ring.ts';

/**
 * Hit counts restored from the store, ascending by time: `atMs[i]` is when the `counts[i]` hits
 * count as made (restoredHitMs: the end of their stored second, but never after the restore).
 */
export interface RestoredHits {
  atMs: number[];
  counts: number[];
}

/**
 * Everything the in-memory limiter knows about one (scope, key), in one object: the rolling
 * window's hits are the object's own ring (it extends HitRing) and the fixed window's counter is
 * fields of it. The hot path reads one key's state per request, and on thousands of active keys
 * each object it follows is a likely CPU-cache miss, so the state is kept flat (decision 0005).
 */
export class KeyState extends HitRing {
  /**
   * Hits not yet written to the store, per unix second; negative counts are refunds. The current
   * second is kept in two plain fields, so counting a request touches no map: a key's older seconds
   * (a flush interval spans two at most, bar refunds and clock steps) go to `pendingOlder`.
   */
  pendingSecond = 0;
  pendingCount = 0;
  /** Whether the state is in the limiter's list of states with pending counts. */
  queued = false;
  /** Dropped from the limiter's map (idle): a caller holding it as a slot must look it up again. */
  detached = false;
  /** Fixed policy: the current window's start (unix ms; -1 before the first fixed decision) and length. */
  windowStartMs = -1;
  windowMs = 0;
  /** Fixed policy: hits counted in the current window. */
  windowCount = 0;
  /** Fixed policy: seq of the first hit this window could have issued; an older seq is an earlier window's. */
  windowFirstSeq = 0;
  readonly keyId: string;
  readonly scope: RateLimitScope;
  /**
   * Restored hits not yet turned into ring entries or a count: the policy (and so the shape) is only
   * known at the key's first request after a restart. One scope is expected to use one policy kind.
   */
  restored: RestoredHits | null = null;
  /** Older seconds' pending counts (see pendingSecond). */
  pendingOlder: Map<number, number> | null = null;
  /**
   * Rolling policy: seqs of hits already refunded (with their times, to forget them once they leave
   * the window), so a second refund of the same hit is a no-op. Refunds are rare (a 304).
   */
  refundedSeqs: Map<number, number> | null = null;
  /** Fixed policy: seqs refunded this window, so a second refund of the same hit is a no-op. */
  windowRefunded: Set<number> | null = null;

  constructor(keyId: string, scope: RateLimitScope) {
    super();
    this.keyId = keyId;
    this.scope = scope;
  }
}

/**
 * When a restored hit counts as made: at the END of its stored second (the SQL store's seconds are
 * the last second of a minute), so a restart can only make the limiter stricter, never looser; but
 * never after `restoredAtMs`, the moment of the restore, which the hit certainly preceded. Without
 * that bound a hit of the last minute before a restart counted as made after it, and kept its key
 * out for longer than the window: Retry-After 86,419 s on a 24 h window (decision 0005).
 */
export const restoredHitMs = (second: number, restoredAtMs: number): number =>
  Math.min(second * 1000 + 999, restoredAtMs);

/**
 * Adds restored counts to a (new) ring. Only the newest `limit` hits are kept: once `limit` hits
 * are in the window, older ones can change neither the admission nor the retry time.
 */
export function restoreInto(ring: HitRing, restored: RestoredHits, cutoffMs: number, limit: number): void {
  for (let i = 0; i < restored.atMs.length; i++) {
    const atMs = restored.atMs[i]!;
    if (atMs <= cutoffMs) continue;
    const n = Math.min(restored.counts[i]!, limit);
    for (let k = 0; k < n; k++) ring.push(atMs);
  }
  ring.keepNewest(limit);
}

/** Restored hits that fall in the fixed window starting at `startMs`. */
export function countRestoredIn(restored: RestoredHits | null, startMs: number, windowMs: number): number {
  if (restored === null) return 0;
  let count = 0;
  for (let i = 0; i < restored.atMs.length; i++) {
    const atMs = restored.atMs[i]!;
    if (atMs >= startMs && atMs < startMs + windowMs) count += restored.counts[i]!;
  }
  return count;
}

import type { RateLimitScope } from '../../core/ratelimit/model.ts';
import { HitRing } from './hit-ring.ts';

/** Counter for the current fixed window of one key. Reused across windows, so a new hour allocates nothing. */
export interface FixedWindow {
  startMs: number;
  windowMs: number;
  count: number;
  /** Seq of the first hit this window could have issued: an older seq belongs to an earlier window. */
  firstSeq: number;
  /** Seqs already refunded this window, so a second refund of the same hit is a no-op. */
  refunded: Set<number> | null;
}

/** Hit counts restored from the store, per unix second, ascending by second. */
export interface RestoredHits {
  seconds: number[];
  counts: number[];
}

/** Everything the in-memory limiter knows about one (scope, key). */
export interface KeyState {
  readonly keyId: string;
  readonly scope: RateLimitScope;
  /** Rolling policy: the hits still in the window. */
  ring: HitRing | null;
  /** Fixed policy: the current window's counter. */
  fixed: FixedWindow | null;
  /**
   * Restored hits not yet turned into a ring or a counter: the policy (and so the shape) is only known
   * at the key's first request after a restart. One scope is expected to use one policy kind.
   */
  restored: RestoredHits | null;
  /**
   * Hits not yet written to the store, per unix second; negative counts are refunds. The current
   * second is kept in two plain fields, so counting a request touches no map: a key's older seconds
   * (a flush interval spans two at most, bar refunds and clock steps) go to `pendingOlder`.
   */
  pendingSecond: number;
  pendingCount: number;
  pendingOlder: Map<number, number> | null;
  /**
   * Rolling policy: seqs of hits already refunded (with their times, to forget them once they leave
   * the window), so a second refund of the same hit is a no-op. Refunds are rare (a 304).
   */
  refundedSeqs: Map<number, number> | null;
  /** Whether the state is in the limiter's list of states with pending counts. */
  queued: boolean;
  /** Dropped from the limiter's map (idle): a caller holding it as a slot must look it up again. */
  detached: boolean;
}

export const newKeyState = (keyId: string, scope: RateLimitScope): KeyState => ({
  keyId,
  scope,
  ring: null,
  fixed: null,
  restored: null,
  pendingSecond: 0,
  pendingCount: 0,
  pendingOlder: null,
  refundedSeqs: null,
  queued: false,
  detached: false,
});

/** A restored hit counts at the END of its second, so a restart can only make the limiter stricter. */
export const restoredHitMs = (second: number): number => second * 1000 + 999;

/**
 * Builds the rolling ring from restored counts. Only the newest `limit` hits are kept: once `limit` hits
 * are in the window, older ones can change neither the admission nor the retry time.
 */
export function ringFromRestored(restored: RestoredHits | null, cutoffMs: number, limit: number): HitRing {
  const ring = new HitRing();
  if (restored === null) return ring;
  for (let i = 0; i < restored.seconds.length; i++) {
    const atMs = restoredHitMs(restored.seconds[i]!);
    if (atMs <= cutoffMs) continue;
    const n = Math.min(restored.counts[i]!, limit);
    for (let k = 0; k < n; k++) ring.push(atMs);
  }
  ring.keepNewest(limit);
  return ring;
}

/** Restored hits that fall in the fixed window starting at `startMs`. */
export function countRestoredIn(restored: RestoredHits | null, startMs: number, windowMs: number): number {
  if (restored === null) return 0;
  let count = 0;
  for (let i = 0; i < restored.seconds.length; i++) {
    const atMs = restoredHitMs(restored.seconds[i]!);
    if (atMs >= startMs && atMs < startMs + windowMs) count += restored.counts[i]!;
  }
  return count;
}

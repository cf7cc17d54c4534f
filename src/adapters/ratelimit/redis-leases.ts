import type { RateLimitDecision, RateLimitPolicy, RateLimitScope } from '../../core/ratelimit/model.ts';

/**
 * Leases of the Redis limiter (decision 0022): tokens of a key's quota reserved in Redis by one
 * instance, which then admits that many requests without asking. A lease is small (at most
 * LEASE_MAX tokens, and never more than a sixteenth of what is left, decided in the script), so it
 * is only granted far from the limit; near it, every decision is Redis's. It lasts LEASE_MS at most.
 * When it ends (used up, its time over, the policy or window changed, recalled, flush, close) it is
 * settled: the hits it admitted are written at the times they were admitted (rolling), the tokens it
 * did not use are given back (fixed). A refusal while another instance holds a lease of the key
 * recalls it (Redis pub/sub) and waits for the settlement, so a refusal is final only once every
 * reserved token is used or given back.
 */

/**
 * How long a lease may be used. Long enough that a key asked a few times a second still decides
 * mostly here (many keys at modest rates is the common load); a refusal elsewhere does not wait for
 * it, it recalls it.
 */
export const LEASE_MS = 5_000;
/**
 * After its end, how long a lease's holder is presumed alive (it settles on a sweep every
 * SWEEP_MS, over a Redis round trip). Past it, the lease is presumed dead: its tokens count as used.
 */
export const LEASE_GRACE_MS = 2_000;
/** Most tokens in one lease: what a `kill -9` can leave counted per key, at worst. */
export const LEASE_MAX = 64;
/**
 * Most keys holding a lease at once: past it, decisions are Redis's one by one. Bounds memory: a
 * lease is a Float64Array of LEASE_MAX and a small object, about 1 KB, so 16 MB at most.
 */
export const MAX_LEASES = 16_384;
/** How often ended leases are looked for. */
export const SWEEP_MS = 500;

export interface Lease {
  /** `${scope}:${keyId}`: the table's key. */
  readonly slot: string;
  readonly keyId: string;
  readonly scope: RateLimitScope;
  /** The Redis key the tokens were counted in (the fixed window's counter, or the rolling set). */
  readonly redisKey: string;
  readonly id: string;
  readonly kind: RateLimitPolicy['kind'];
  readonly limit: number;
  readonly windowMs: number;
  /** Sequence number of the first token: token i's hit is seq + i. */
  readonly seq: number;
  readonly size: number;
  /** Tokens handed out so far (the first went to the request that asked for the lease). */
  used: number;
  /** When each token was used, the hits its settlement writes (unused or refunded: NaN). */
  readonly usedAt: Float64Array;
  /**
   * The key's count in Redis as this instance last saw it (at the grant, then at each of its own
   * decisions there): every token of the lease is in it, used or not.
   */
  knownCount: number;
  readonly resetAtMs: number;
  /** Fixed windows: the window the tokens belong to. */
  readonly windowStart: number;
  /** Clock time after which no token is handed out. */
  readonly endsAt: number;
}

/** The leases this instance holds, at most one per (scope, key) and at most MAX_LEASES in all. */
export class LeaseTable {
  private readonly bySlot = new Map<string, Lease>();
  /** The same leases by their Redis key, for recalls (which name the key). */
  private readonly byRedisKey = new Map<string, Lease>();
  /** Slots whose lease request is in flight: one at a time per slot. */
  private readonly asking = new Set<string>();

  get size(): number {
    return this.bySlot.size;
  }

  /**
   * A token of this slot's lease for a request at `now`, as its decision; null when there is none
   * to use. A lease that cannot serve (used up, over, another policy or window) is removed and
   * returned in `ended` for settling.
   */
  take(
    slot: string,
    policy: RateLimitPolicy,
    now: number,
    windowStart: number,
  ): { decision: RateLimitDecision | null; ended: Lease | null } {
    const lease = this.bySlot.get(slot);
    if (!lease) return { decision: null, ended: null };
    const usable =
      lease.used < lease.size &&
      now < lease.endsAt &&
      lease.kind === policy.kind &&
      lease.limit === policy.limit &&
      lease.windowMs === policy.windowMs &&
      (lease.kind === 'rolling' || lease.windowStart === windowStart);
    if (!usable) {
      this.remove(lease);
      return { decision: null, ended: lease };
    }
    const i = lease.used++;
    lease.usedAt[i] = now;
    return {
      decision: {
        allowed: true,
        limit: lease.limit,
        // What this instance knows: the count it last saw, less the tokens it has not used yet.
        remaining: lease.limit - lease.knownCount + (lease.size - lease.used),
        resetAtMs: lease.resetAtMs,
        retryAfterMs: 0,
        hit: { keyId: lease.keyId, scope: lease.scope, atMs: now, seq: lease.seq + i },
      },
      ended: null,
    };
  }

  /**
   * The tokens of this slot's lease not used yet, when it could still serve `policy` at `now`
   * (0 otherwise); records `count` as the key's latest count in Redis.
   */
  unused(slot: string, policy: RateLimitPolicy, now: number, count: number): number {
    const lease = this.bySlot.get(slot);
    if (
      !lease ||
      lease.kind !== policy.kind ||
      lease.limit !== policy.limit ||
      lease.windowMs !== policy.windowMs
    )
      return 0;
    if (now >= lease.endsAt) return 0;
    lease.knownCount = count;
    return lease.size - lease.used;
  }

  /** Whether a request of this slot may ask Redis for a lease now (none asked, room in the table). */
  mayAsk(slot: string): boolean {
    return !this.asking.has(slot) && this.bySlot.size + this.asking.size < MAX_LEASES;
  }

  asked(slot: string): void {
    this.asking.add(slot);
  }

  answered(slot: string): void {
    this.asking.delete(slot);
  }

  /** Keeps a granted lease; returns one it replaces (to settle), which cannot happen while `asking` holds. */
  add(lease: Lease): Lease | null {
    const old = this.bySlot.get(lease.slot) ?? null;
    if (old) this.remove(old);
    this.bySlot.set(lease.slot, lease);
    this.byRedisKey.set(lease.redisKey, lease);
    return old;
  }

  /** Removes and returns the lease counted in this Redis key (a recall), if this instance holds it. */
  takeByRedisKey(redisKey: string): Lease | null {
    const lease = this.byRedisKey.get(redisKey);
    if (!lease) return null;
    this.remove(lease);
    return lease;
  }

  /**
   * Un-uses the token of this hit when its lease is still held (a refund before the settlement:
   * the hit is then never written). False when no held lease issued it.
   */
  refund(slot: string, seq: number): boolean {
    const lease = this.bySlot.get(slot);
    if (!lease || seq < lease.seq || seq >= lease.seq + lease.size) return false;
    lease.usedAt[seq - lease.seq] = Number.NaN;
    return true;
  }

  private remove(lease: Lease): void {
    if (this.bySlot.get(lease.slot) === lease) this.bySlot.delete(lease.slot);
    if (this.byRedisKey.get(lease.redisKey) === lease) this.byRedisKey.delete(lease.redisKey);
  }

  /** Removes and returns the leases whose time is over at `now` (all of them when `now` is Infinity). */
  takeEnded(now: number): Lease[] {
    const out: Lease[] = [];
    for (const lease of this.bySlot.values()) {
      if (lease.endsAt <= now) {
        this.remove(lease);
        out.push(lease);
      }
    }
    return out;
  }
}

import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers';
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.ts';
import type {
  RateLimitDecision,
  RateLimiter,
  RateLimitHit,
  RateLimitPolicy,
  RateLimitScope,
} from '../../core/ratelimit/model.ts';
import { LEASE_GRACE_MS, LEASE_MAX, LEASE_MS, type Lease, LeaseTable, SWEEP_MS } from './redis-leases.ts';
import { batchScript, fixedRefundScript } from './redis-scripts.ts';

export interface RedisRateLimiterDeps {
  redis: Redis;
  clock: Clock;
  /** Namespace of every key this limiter writes. Default 'purerank:rl:'. */
  prefix?: string;
  /** Whether close() should quit the client. Default false: a shared client belongs to its creator. */
  ownsClient?: boolean;
  /**
   * Decides while Redis does not answer (an error or a timeout of the client): the service keeps
   * serving with per-instance limits rather than failing every request (docs/reliability.md).
   * Without it a Redis error is the caller's.
   */
  fallback?: RateLimiter;
  /** Told once when decisions move to the fallback, and once when they come back to Redis. */
  onFallback?: (state: 'redis-unavailable' | 'redis-back', err?: unknown) => void;
  /**
   * How long a batch of decisions waits for Redis before it fails (and the fallback decides).
   * Default 500 ms. Measured so that a stalled event loop is not taken for a silent Redis: the
   * limit is only reached once the loop has read what arrived meanwhile (see send()). The client's
   * own commandTimeout, if any, should be well above it.
   */
  decisionTimeoutMs?: number;
}

/**
 * One operation waiting for the next batch: its key and script arguments, and its caller. A decision
 * gets its five values back; a settlement only learns that the batch ran.
 */
interface Pending {
  key: string;
  args: (string | number)[];
  decision: boolean;
  resolve: (reply: Reply) => void;
  reject: (err: unknown) => void;
}

/**
 * A decision's five values from the batch script: allowed (1, 0, or 2 = refused while another
 * instance's lease is live), count, oldest score, room score, and the tokens granted (allowed 1) or
 * the live leases' latest expiry (allowed 2).
 */
type Reply = [number, number, string, string, number];

const SETTLED: Reply = [0, 0, '', '', 0];

/**
 * How a refusal waits for other instances' leases it recalled: RECALL_WAIT_MS, doubling each time,
 * never past the leases' presumed end, at most MAX_WAITS times (1.26 s in all). A live holder
 * settles within a round trip of the recall; one that has not by then is stopped or dead, and
 * waiting longer gains nothing (a dead holder's tokens will count as used anyway): the refusal is
 * final, in the client's disfavour while a stopped holder still has unused tokens.
 */
const RECALL_WAIT_MS = 20;
const MAX_WAITS = 6;

/**
 * The fallback's hits are given negative sequence numbers, so a refund knows them from Redis's
 * (whose members are this instance's positive sequence numbers: the same numbers would name
 * another hit there).
 */
const fromFallback = (d: RateLimitDecision): RateLimitDecision =>
  d.hit ? { ...d, hit: { ...d.hit, seq: -d.hit.seq } } : d;

/** Refusals waiting for leases at most; past it a refusal is final at once (in the client's disfavour). */
const MAX_WAITING = 10_000;

/**
 * The most operations in one script run: Redis runs a script alone, so a batch's length is how long
 * every other client of that Redis waits (a rolling decision is a handful of sorted-set commands, a
 * settlement one command per token).
 */
const MAX_BATCH = 128;

/**
 * Decisions waiting for a batch at most. Each is an in-flight request of a known key; past this the
 * decision fails at once (the fallback takes it) rather than queueing without bound behind a slow Redis.
 */
const MAX_PENDING = 10_000;

/**
 * Rate limiting shared by every instance through Redis. Each decision runs inside an atomic Lua
 * script, so requests at the edge from any number of instances never over-admit.
 *
 * The decisions of one turn of the event loop travel together: one script, one round trip, for every
 * request read in that turn (decision 0022). A decision alone cost the service a Redis command's
 * encoding, a round trip's two system calls and a promise; batched, those are shared, and what stays
 * per decision is its arguments.
 *
 * Time comes from the caller's clock, not Redis TIME, so tests can move it; instances should run NTP.
 * Keys: rolling `${prefix}${scope}:${keyId}:rolling` (sorted set of hits), fixed
 * `${prefix}${scope}:${keyId}:${windowStart}` (counter) plus `...:refunded` (refunded hit ids).
 * Every key expires when its window no longer needs it.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly clock: Clock;
  private readonly prefix: string;
  private readonly ownsClient: boolean;
  private readonly fallback: RateLimiter | undefined;
  private readonly onFallback: RedisRateLimiterDeps['onFallback'];
  /** Makes hit ids unique across processes sharing the Redis; seq makes them unique within one. */
  private readonly instanceId = randomBytes(6).toString('base64url');
  private seq = 0;
  private leaseSeq = 0;
  private pending: Pending[] = [];
  private scheduled = false;
  /** Whether the last batch failed: decisions are the fallback's until one succeeds again. */
  private unavailable = false;
  private readonly leases = new LeaseTable();
  /** Settlements sent and not yet answered: flush() and close() wait for them. */
  private readonly settling = new Set<Promise<unknown>>();
  private waiting = 0;
  private readonly sweep: NodeJS.Timeout;
  /** Receives recalls of this instance's leases (Redis pub/sub needs a connection of its own). */
  private readonly recalls: Redis;
  private readonly recallPrefix: string;
  private readonly decisionTimeoutMs: number;

  constructor(deps: RedisRateLimiterDeps) {
    this.redis = deps.redis;
    this.clock = deps.clock;
    this.prefix = deps.prefix ?? 'purerank:rl:';
    this.ownsClient = deps.ownsClient ?? false;
    this.fallback = deps.fallback;
    this.onFallback = deps.onFallback;
    this.decisionTimeoutMs = deps.decisionTimeoutMs ?? 500;
    // Leases whose time is over are settled here, so their tokens go back within SWEEP_MS of their
    // end even when no request of that key comes.
    this.sweep = setInterval(() => {
      for (const lease of this.leases.takeEnded(this.clock.now())) this.settle(lease);
    }, SWEEP_MS);
    this.sweep.unref();
    this.recallPrefix = `${this.prefix}recall:`;
    this.recalls = this.redis.duplicate({ lazyConnect: true });
    // Its errors are the main client's too (the same server); it reconnects and subscribes again by
    // itself. While it cannot, a refusal elsewhere waits for this instance's lease to end instead.
    this.recalls.on('error', () => {});
    this.recalls.on('message', (_channel: string, redisKey: string) => {
      const lease = this.leases.takeByRedisKey(redisKey);
      if (lease) this.settle(lease);
    });
    // Subscribed on every 'ready', not after connect(): when Redis is away at start, connect()
    // fails while the client goes on trying, and the subscription must follow once it gets through.
    this.recalls.on('ready', () => {
      this.recalls.subscribe(`${this.recallPrefix}${this.instanceId}`).catch(() => {});
    });
    this.recalls.connect().catch(() => {});
  }

  /** Whether decisions are the fallback's right now (Redis did not answer the last batch). */
  get degraded(): boolean {
    return this.unavailable;
  }

  /** How many keys hold a lease now (for tests and metrics). */
  get leasesHeld(): number {
    return this.leases.size;
  }

  consume(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.consumeAfter(keyId, scope, policy, 0);
  }

  /** A token of a lease this instance holds for the key, or null (a lease that ended is settled). */
  consumeLocal(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): RateLimitDecision | null {
    const now = this.clock.now();
    const taken = this.leases.take(`${scope}:${keyId}`, policy, now, windowStart(now, policy.windowMs));
    // Settled before the decision that follows: both go in the same batch, in that order.
    if (taken.ended) this.settle(taken.ended);
    return taken.decision;
  }

  /** A token of this instance's lease when it has one, else Redis's decision (after `waits` waits). */
  private consumeAfter(
    keyId: string,
    scope: RateLimitScope,
    policy: RateLimitPolicy,
    waits: number,
  ): Promise<RateLimitDecision> {
    const local = this.consumeLocal(keyId, scope, policy);
    return local ? Promise.resolve(local) : this.decide(keyId, scope, policy, true, waits);
  }

  peek(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.decide(keyId, scope, policy, false, 0);
  }

  async refund(hit: RateLimitHit, policy: RateLimitPolicy): Promise<void> {
    // A hit the fallback admitted is the fallback's to refund: its number names nothing in Redis.
    if (hit.seq < 0) {
      await this.fallback?.refund({ ...hit, seq: -hit.seq }, policy);
      return;
    }
    try {
      if (policy.kind === 'rolling') {
        // A hit of a lease still held is not in Redis yet: its settlement will leave it out.
        if (this.leases.refund(`${hit.scope}:${hit.keyId}`, hit.seq)) return;
        // Through the batch, after any settlement already queued that writes this hit. ZREM of a
        // member that is gone (already refunded, or expired) is a no-op: idempotent for free.
        await this.enqueue(this.rollingKey(hit.keyId, hit.scope), false, ['x', this.member(hit.seq)]);
        return;
      }
      const counter = this.fixedKey(hit.keyId, hit.scope, windowStart(hit.atMs, policy.windowMs));
      await fixedRefundScript.run(this.redis, [counter, `${counter}:refunded`], [this.member(hit.seq)]);
    } catch (err) {
      // A refund is a courtesy (a 304 is not counted): without Redis it is dropped, in the
      // client's disfavour by one request, rather than failing the answer. (Not the fallback's to
      // make: this hit is Redis's, and its number may name another hit of the fallback.)
      if (!this.fallback) throw err;
    }
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** Settles every lease now (their unused tokens go back) and waits for the settlements. */
  async flush(): Promise<void> {
    for (const lease of this.leases.takeEnded(Number.POSITIVE_INFINITY)) this.settle(lease);
    await Promise.allSettled([...this.settling]);
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await this.flush();
    this.recalls.disconnect();
    await this.fallback?.close?.();
    if (!this.ownsClient) return;
    // QUIT while Redis answers. Otherwise QUIT would fail (a client without an offline queue),
    // fail the caller's close, and leave the client reconnecting, which keeps the process alive:
    // the connection is dropped instead.
    if (this.redis.status === 'ready') {
      try {
        await this.redis.quit();
        return;
      } catch {
        // Went away meanwhile: dropped below.
      }
    }
    this.redis.disconnect();
  }

  private async decide(
    keyId: string,
    scope: RateLimitScope,
    policy: RateLimitPolicy,
    count: boolean,
    waits: number,
  ): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const { limit, windowMs } = policy;
    const slot = `${scope}:${keyId}`;
    // One lease request per key at a time; the others of the same turn are decided one by one.
    const want = !count ? 0 : this.leases.mayAsk(slot) ? LEASE_MAX : 1;
    const seq = this.seq + 1;
    if (count) this.seq += want;
    const leaseId = want > 1 ? `${this.instanceId}.${++this.leaseSeq}` : '';
    const leaseUntil = now + LEASE_MS + LEASE_GRACE_MS;
    const start = windowStart(now, windowMs);
    let reply: Reply;
    if (want > 1) this.leases.asked(slot);
    try {
      if (policy.kind === 'rolling') {
        const cutoff = now - windowMs;
        reply = await this.enqueue(this.rollingKey(keyId, scope), true, [
          'r',
          now,
          windowMs,
          limit,
          cutoff,
          `(${cutoff}`,
          want,
          this.member(seq),
          leaseId,
          leaseUntil,
          this.instanceId,
          this.recallPrefix,
        ]);
      } else {
        // The counter lives until its window ends (plus a second of slack for clock skew between instances).
        const ttlMs = start + windowMs - now + 1000;
        reply = await this.enqueue(this.fixedKey(keyId, scope, start), true, [
          'f',
          now,
          limit,
          ttlMs,
          want,
          leaseId,
          leaseUntil,
          this.instanceId,
          this.recallPrefix,
        ]);
      }
    } catch (err) {
      if (!this.fallback) throw err;
      if (!this.unavailable) {
        this.unavailable = true;
        this.onFallback?.('redis-unavailable', err);
      }
      return count
        ? fromFallback(await this.fallback.consume(keyId, scope, policy))
        : this.fallback.peek(keyId, scope, policy);
    } finally {
      if (want > 1) this.leases.answered(slot);
    }
    if (this.unavailable) {
      this.unavailable = false;
      this.onFallback?.('redis-back');
    }
    if (count && reply[0] !== 1) {
      // Refused by Redis. A lease of this instance granted in the same batch may hold tokens counted
      // there: they are this request's to use (in the window of now, after the round trip).
      const later = this.clock.now();
      const taken = this.leases.take(slot, policy, later, windowStart(later, windowMs));
      if (taken.decision) return taken.decision;
      if (taken.ended) {
        this.settle(taken.ended);
        // Its tokens were counted in this refusal: asked again after the settlement, which goes
        // first in the next batch.
        if (waits < MAX_WAITS) return this.decide(keyId, scope, policy, count, waits + 1);
      }
      if (reply[0] === 2) {
        // Refused while another instance holds a lease of the key: the script recalled it, and
        // this asks again once it has been settled, so a refusal is only final when every token
        // is used or given back.
        if (waits < MAX_WAITS && this.waiting < MAX_WAITING) {
          const ms = Math.min(Math.max(reply[4] - now, 0), RECALL_WAIT_MS * 2 ** waits) + 1;
          this.waiting++;
          try {
            await new Promise((r) => setTimeout(r, ms));
          } finally {
            this.waiting--;
          }
          return this.consumeAfter(keyId, scope, policy, waits + 1);
        }
        reply[0] = 0;
      }
    }
    // The count in Redis includes the tokens of this instance's lease it has not used yet: they are
    // still its to admit, and its answers say so.
    reply[1] -= this.leases.unused(slot, policy, now, reply[1]);
    const asked = { keyId, scope, now, seq, limit, windowMs, count };
    const decision = policy.kind === 'rolling' ? rollingDecision(reply, asked) : fixedDecision(reply, asked);
    const granted = reply[0] === 1 ? reply[4] : 0;
    if (granted > 1) {
      const usedAt = new Float64Array(granted).fill(Number.NaN);
      usedAt[0] = now;
      const replaced = this.leases.add({
        slot,
        keyId,
        scope,
        redisKey:
          policy.kind === 'rolling' ? this.rollingKey(keyId, scope) : this.fixedKey(keyId, scope, start),
        id: leaseId,
        kind: policy.kind,
        limit,
        windowMs,
        seq,
        size: granted,
        used: 1,
        usedAt,
        knownCount: reply[1],
        resetAtMs: decision.resetAtMs,
        windowStart: start,
        endsAt: now + LEASE_MS,
      });
      if (replaced) this.settle(replaced);
    }
    return decision;
  }

  /** Sends a lease's end: used tokens re-dated (rolling), unused ones given back. */
  private settle(lease: Lease): void {
    const args: (string | number)[] =
      lease.kind === 'rolling'
        ? ['s', lease.id, `${this.instanceId}:`, lease.seq, lease.used]
        : ['g', lease.id, lease.size - lease.used];
    if (lease.kind === 'rolling') {
      for (let i = 0; i < lease.used; i++) {
        const t = lease.usedAt[i]!;
        args.push(Number.isNaN(t) ? '' : t);
      }
    }
    // Failing (Redis away), the lease stays as it was granted until it is presumed dead; then all
    // its tokens count as used (decision 0022): stricter, never over the limit.
    const done = this.enqueue(lease.redisKey, false, args).catch(() => {});
    this.settling.add(done);
    void done.finally(() => this.settling.delete(done));
  }

  /** Queues one operation for the batch of this turn of the event loop. */
  private enqueue(key: string, decision: boolean, args: (string | number)[]): Promise<Reply> {
    if (this.pending.length >= MAX_PENDING) {
      return Promise.reject(new Error(`more than ${MAX_PENDING} rate-limit decisions are waiting for Redis`));
    }
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({ key, args, decision, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the poll phase: every request read in this turn has queued its decision by then.
        setImmediate(this.sendPending);
      }
    });
  }

  private readonly sendPending = (): void => {
    this.scheduled = false;
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += MAX_BATCH) this.send(all.slice(i, i + MAX_BATCH));
  };

  private send(batch: Pending[]): void {
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const p of batch) {
      keys.push(p.key);
      for (const a of p.args) args.push(a);
    }
    // The time limit is ours, not the client's commandTimeout: when the event loop was stalled (a
    // long GC, a paused VM) past the limit, the answer may be waiting in the socket, read in this
    // turn's poll phase, after the timers. So the limit only fails the batch on the check phase
    // that follows it; a stall alone would otherwise move decisions to the fallback and reopen a
    // full quota per instance.
    let done = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (done) return;
        done = true;
        const err = new Error(`Redis did not answer within ${this.decisionTimeoutMs} ms`);
        for (const p of batch) p.reject(err);
      });
    }, this.decisionTimeoutMs);
    batchScript.run(this.redis, keys, args).then(
      (raw) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const r = raw as (number | string)[];
        let b = 0;
        for (const p of batch) {
          if (!p.decision) {
            p.resolve(SETTLED);
            continue;
          }
          p.resolve([Number(r[b]), Number(r[b + 1]), String(r[b + 2]), String(r[b + 3]), Number(r[b + 4])]);
          b += 5;
        }
      },
      (err: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        for (const p of batch) p.reject(err);
      },
    );
  }

  private rollingKey(keyId: string, scope: RateLimitScope): string {
    return `${this.prefix}${scope}:${keyId}:rolling`;
  }

  private fixedKey(keyId: string, scope: RateLimitScope, start: number): string {
    return `${this.prefix}${scope}:${keyId}:${start}`;
  }

  /** Unique id of a hit: the refund reconstructs it from the hit, so nothing is kept in memory. */
  private member(seq: number): string {
    return `${this.instanceId}:${seq}`;
  }
}

interface Asked {
  keyId: string;
  scope: RateLimitScope;
  now: number;
  seq: number;
  limit: number;
  windowMs: number;
  count: boolean;
}

function rollingDecision(reply: Reply, a: Asked): RateLimitDecision {
  const [admitted, n, oldest, room] = reply;
  const { limit, windowMs, now } = a;
  const resetAtMs = (oldest !== '' ? Number(oldest) : now) + windowMs;
  if (admitted === 1) {
    const hit = { keyId: a.keyId, scope: a.scope, atMs: now, seq: a.seq };
    return { allowed: true, limit, remaining: leftAfter(reply, limit), resetAtMs, retryAfterMs: 0, hit };
  }
  if (!a.count && n < limit)
    return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0 };
  // Room appears when the hit at index n - limit leaves; with exactly `limit` hits that is the oldest.
  const retryAfterMs = room !== '' ? Number(room) + windowMs - now : windowMs;
  return { allowed: false, limit, remaining: 0, resetAtMs, retryAfterMs };
}

function fixedDecision(reply: Reply, a: Asked): RateLimitDecision {
  const [admitted, n] = reply;
  const { limit, windowMs, now } = a;
  const resetAtMs = windowStart(now, windowMs) + windowMs;
  if (admitted === 1) {
    const hit = { keyId: a.keyId, scope: a.scope, atMs: now, seq: a.seq };
    return { allowed: true, limit, remaining: leftAfter(reply, limit), resetAtMs, retryAfterMs: 0, hit };
  }
  if (!a.count && n < limit)
    return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0 };
  return { allowed: false, limit, remaining: 0, resetAtMs, retryAfterMs: resetAtMs - now };
}

/**
 * What is left after an admitted decision, as this instance sees it: the count includes every token
 * of a lease it was just granted, and all but this request's are still its own to use.
 */
function leftAfter(reply: Reply, limit: number): number {
  return limit - reply[1] + Math.max(reply[4] - 1, 0);
}

const windowStart = (atMs: number, windowMs: number): number => Math.floor(atMs / windowMs) * windowMs;

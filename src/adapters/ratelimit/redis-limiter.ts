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
}

/** One decision waiting for the next batch: its key, its seven script arguments, and its caller. */
interface Pending {
  key: string;
  args: (string | number)[];
  resolve: (reply: Reply) => void;
  reject: (err: unknown) => void;
}

/** A decision's four values from the batch script: allowed, count, oldest score, room score. */
type Reply = [number, number, string, string];

/**
 * The most decisions in one script run: Redis runs a script alone, so a batch's length is how long
 * every other client of that Redis waits (a rolling decision is a handful of sorted-set commands).
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
  private pending: Pending[] = [];
  private scheduled = false;
  /** Whether the last batch failed: decisions are the fallback's until one succeeds again. */
  private unavailable = false;

  constructor(deps: RedisRateLimiterDeps) {
    this.redis = deps.redis;
    this.clock = deps.clock;
    this.prefix = deps.prefix ?? 'purerank:rl:';
    this.ownsClient = deps.ownsClient ?? false;
    this.fallback = deps.fallback;
    this.onFallback = deps.onFallback;
  }

  /** Whether decisions are the fallback's right now (Redis did not answer the last batch). */
  get degraded(): boolean {
    return this.unavailable;
  }

  consume(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.decide(keyId, scope, policy, true);
  }

  peek(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return this.decide(keyId, scope, policy, false);
  }

  async refund(hit: RateLimitHit, policy: RateLimitPolicy): Promise<void> {
    try {
      if (policy.kind === 'rolling') {
        // ZREM of a member that is gone (already refunded, expired, or decided by the fallback) is a
        // no-op: idempotent for free.
        await this.redis.zrem(this.rollingKey(hit.keyId, hit.scope), this.member(hit.atMs, hit.seq));
        return;
      }
      const counter = this.fixedKey(hit.keyId, hit.scope, windowStart(hit.atMs, policy.windowMs));
      await fixedRefundScript.run(
        this.redis,
        [counter, `${counter}:refunded`],
        [this.member(hit.atMs, hit.seq)],
      );
    } catch (err) {
      // A refund is a courtesy (a 304 is not counted): without Redis it is dropped, in the
      // client's disfavour by one request, rather than failing the answer.
      if (!this.fallback) throw err;
      await this.fallback.refund(hit, policy);
    }
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** Nothing is buffered: every hit is in Redis when consume() resolves. */
  async flush(): Promise<void> {}

  async close(): Promise<void> {
    await this.fallback?.close?.();
    if (this.ownsClient) await this.redis.quit();
  }

  private async decide(
    keyId: string,
    scope: RateLimitScope,
    policy: RateLimitPolicy,
    count: boolean,
  ): Promise<RateLimitDecision> {
    const now = this.clock.now();
    const { limit, windowMs } = policy;
    let reply: Reply;
    let seq = 0;
    try {
      if (policy.kind === 'rolling') {
        seq = count ? ++this.seq : 0;
        const cutoff = now - windowMs;
        reply = await this.enqueue(this.rollingKey(keyId, scope), [
          'r',
          now,
          windowMs,
          limit,
          count ? this.member(now, seq) : '',
          cutoff,
          `(${cutoff}`,
        ]);
      } else {
        const start = windowStart(now, windowMs);
        // The counter lives until its window ends (plus a second of slack for clock skew between instances).
        const ttlMs = start + windowMs - now + 1000;
        reply = await this.enqueue(this.fixedKey(keyId, scope, start), [
          'f',
          limit,
          ttlMs,
          count ? '1' : '0',
          '',
          '',
          '',
        ]);
        if (reply[0] === 1) seq = ++this.seq;
      }
    } catch (err) {
      if (!this.fallback) throw err;
      if (!this.unavailable) {
        this.unavailable = true;
        this.onFallback?.('redis-unavailable', err);
      }
      return count ? this.fallback.consume(keyId, scope, policy) : this.fallback.peek(keyId, scope, policy);
    }
    if (this.unavailable) {
      this.unavailable = false;
      this.onFallback?.('redis-back');
    }
    return policy.kind === 'rolling'
      ? rollingDecision(reply, { keyId, scope, now, seq, limit, windowMs, count })
      : fixedDecision(reply, { keyId, scope, now, seq, limit, windowMs, count });
  }

  /** Queues one decision for the batch of this turn of the event loop. */
  private enqueue(key: string, args: (string | number)[]): Promise<Reply> {
    if (this.pending.length >= MAX_PENDING) {
      return Promise.reject(new Error(`more than ${MAX_PENDING} rate-limit decisions are waiting for Redis`));
    }
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({ key, args, resolve, reject });
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
    batchScript.run(this.redis, keys, args).then(
      (raw) => {
        const r = raw as (number | string)[];
        for (let i = 0; i < batch.length; i++) {
          const b = i * 4;
          batch[i]!.resolve([Number(r[b]), Number(r[b + 1]), String(r[b + 2]), String(r[b + 3])]);
        }
      },
      (err: unknown) => {
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
  private member(atMs: number, seq: number): string {
    return `${atMs}:${this.instanceId}:${seq}`;
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
    return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0, hit };
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
    return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0, hit };
  }
  if (!a.count && n < limit)
    return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0 };
  return { allowed: false, limit, remaining: 0, resetAtMs, retryAfterMs: resetAtMs - now };
}

const windowStart = (atMs: number, windowMs: number): number => Math.floor(atMs / windowMs) * windowMs;

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.ts';
import type {
  RateLimitDecision,
  RateLimiter,
  RateLimitHit,
  RateLimitPolicy,
  RateLimitScope,
} from '../../core/ratelimit/model.ts';
import { fixedRefundScript, fixedScript, rollingScript } from './redis-scripts.ts';

export interface RedisRateLimiterDeps {
  redis: Redis;
  clock: Clock;
  /** Namespace of every key this limiter writes. Default 'purerank:rl:'. */
  prefix?: string;
  /** Whether close() should quit the client. Default false: a shared client belongs to its creator. */
  ownsClient?: boolean;
}

/**
 * Rate limiting shared by every instance through Redis. Each consume is one atomic Lua script (one
 * round trip), so requests at the edge from any number of instances never over-admit.
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
  /** Makes hit ids unique across processes sharing the Redis; seq makes them unique within one. */
  private readonly instanceId = randomBytes(6).toString('base64url');
  private seq = 0;

  constructor(deps: RedisRateLimiterDeps) {
    this.redis = deps.redis;
    this.clock = deps.clock;
    this.prefix = deps.prefix ?? 'purerank:rl:';
    this.ownsClient = deps.ownsClient ?? false;
  }

  consume(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return policy.kind === 'rolling'
      ? this.rolling(keyId, scope, policy, true)
      : this.fixed(keyId, scope, policy, true);
  }

  peek(keyId: string, scope: RateLimitScope, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    return policy.kind === 'rolling'
      ? this.rolling(keyId, scope, policy, false)
      : this.fixed(keyId, scope, policy, false);
  }

  async refund(hit: RateLimitHit, policy: RateLimitPolicy): Promise<void> {
    if (policy.kind === 'rolling') {
      // ZREM of a member that is gone (already refunded, or expired) is a no-op: idempotent for free.
      await this.redis.zrem(this.rollingKey(hit.keyId, hit.scope), this.member(hit.atMs, hit.seq));
      return;
    }
    const counter = this.fixedKey(hit.keyId, hit.scope, windowStart(hit.atMs, policy.windowMs));
    await fixedRefundScript.run(
      this.redis,
      [counter, `${counter}:refunded`],
      [this.member(hit.atMs, hit.seq)],
    );
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** Nothing is buffered: every hit is in Redis when consume() resolves. */
  async flush(): Promise<void> {}

  async close(): Promise<void> {
    if (this.ownsClient) await this.redis.quit();
  }

  private async rolling(
    keyId: string,
    scope: RateLimitScope,
    policy: RateLimitPolicy,
    count: boolean,
  ): Promise<RateLimitDecision> {
    const { limit, windowMs } = policy;
    const now = this.clock.now();
    const seq = count ? ++this.seq : 0;
    const cutoff = now - windowMs;
    const reply = (await rollingScript.run(
      this.redis,
      [this.rollingKey(keyId, scope)],
      [now, windowMs, limit, count ? this.member(now, seq) : '', cutoff, `(${cutoff}`],
    )) as [number, number, string | null, string | null];
    const [admitted, n, oldest, room] = reply;
    const resetAtMs = (oldest ? Number(oldest) : now) + windowMs;
    if (admitted === 1) {
      const hit = { keyId, scope, atMs: now, seq };
      return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0, hit };
    }
    if (!count && n < limit)
      return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0 };
    // Room appears when the hit at index n - limit leaves; with exactly `limit` hits that is the oldest.
    const retryAfterMs = room ? Number(room) + windowMs - now : windowMs;
    return { allowed: false, limit, remaining: 0, resetAtMs, retryAfterMs };
  }

  private async fixed(
    keyId: string,
    scope: RateLimitScope,
    policy: RateLimitPolicy,
    count: boolean,
  ): Promise<RateLimitDecision> {
    const { limit, windowMs } = policy;
    const now = this.clock.now();
    const start = windowStart(now, windowMs);
    const resetAtMs = start + windowMs;
    // The counter lives until its window ends (plus a second of slack for clock skew between instances).
    const ttlMs = resetAtMs - now + 1000;
    const reply = (await fixedScript.run(
      this.redis,
      [this.fixedKey(keyId, scope, start)],
      [limit, ttlMs, count ? '1' : '0'],
    )) as [number, number];
    const [admitted, n] = reply;
    if (admitted === 1) {
      const hit = { keyId, scope, atMs: now, seq: ++this.seq };
      return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0, hit };
    }
    if (!count && n < limit)
      return { allowed: true, limit, remaining: limit - n, resetAtMs, retryAfterMs: 0 };
    return { allowed: false, limit, remaining: 0, resetAtMs, retryAfterMs: resetAtMs - now };
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

const windowStart = (atMs: number, windowMs: number): number => Math.floor(atMs / windowMs) * windowMs;

import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../../src/adapters/ratelimit/memory-limiter.ts';
import { RedisRateLimiter } from '../../../src/adapters/ratelimit/redis-limiter.ts';
import { DAY_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';
import { PrivateRedis } from '../../support/private-redis.ts';
import { REDIS_URL, redisAvailable } from '../../support/redis.ts';

/**
 * Two ways the fallback used to take decisions it should not have, found by the hostile review of
 * issue [9]: an event loop stalled past the time limit (Redis healthy, its answer waiting in the
 * socket), and a refund of a hit the fallback admitted, which removed another hit from Redis.
 */
const available = await redisAvailable('the Redis stall and refund tests');
const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);
const SMALL: RateLimitPolicy = { kind: 'rolling', limit: 5, windowMs: DAY_MS };

describe.skipIf(!available)('RedisRateLimiter and its fallback (real Redis)', () => {
  const stops: (() => Promise<void>)[] = [];
  let server: PrivateRedis | undefined;
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  afterAll(async () => {
    await server?.down();
  });

  /** As the container builds it: no offline queue, a backstop per command, our own decision limit. */
  const open = async (url: string) => {
    const clock = new ManualClock(T0);
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 5_000,
      retryStrategy: () => 100,
    });
    redis.on('error', () => {});
    await redis.connect();
    const events: string[] = [];
    const prefix = `purerank:test:${randomBytes(6).toString('hex')}:`;
    const rl = new RedisRateLimiter({
      redis,
      clock,
      prefix,
      decisionTimeoutMs: 500,
      fallback: new MemoryRateLimiter({ clock }),
      onFallback: (state) => events.push(state),
    });
    stops.push(async () => {
      const keys = await redis.keys(`${prefix}*`).catch(() => []);
      if (keys.length > 0) await redis.del(...keys).catch(() => {});
      await rl.close();
      redis.disconnect();
    });
    return { rl, redis, events, prefix };
  };

  it('an event loop stalled past the time limit is no Redis outage: the decision is Redis’s', async () => {
    const { rl, events } = await open(REDIS_URL);
    await rl.consume('k', 'b', SMALL);
    const pending = rl.consume('k', 'b', SMALL);
    // The batch goes out on this turn's check phase; then the loop is blocked for 800 ms, while
    // Redis answers in about a millisecond.
    await new Promise((r) => setImmediate(r));
    const until = performance.now() + 800;
    while (performance.now() < until) {
      // busy: a long GC, a paused VM
    }
    expect(await pending).toMatchObject({ allowed: true, remaining: 3 });
    expect(events).toEqual([]);
    expect(rl.degraded).toBe(false);
  });

  it('a Redis that does not answer is one: after the time limit the fallback decides', async () => {
    server = await PrivateRedis.start();
    await server.up();
    const { rl, events } = await open(server.url);
    await rl.consume('k', 'b', SMALL);
    const admin = new Redis(server.url);
    try {
      // Connected, silent: every client but this one paused for 1.5 s.
      await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
      const t0 = performance.now();
      const d = await rl.consume('k', 'b', SMALL);
      const took = performance.now() - t0;
      expect(d.allowed).toBe(true);
      expect(events).toEqual(['redis-unavailable']);
      expect(took).toBeGreaterThanOrEqual(490);
      expect(took).toBeLessThan(1_400);
      await sleep(1_200);
    } finally {
      admin.disconnect();
    }
  });

  it('refunding a hit the fallback admitted leaves Redis’s hits alone', async () => {
    const { rl, redis, prefix } = await open(REDIS_URL);
    // Two hits in Redis, members `<instance>:1` and `<instance>:2` (limit 5: no lease, exact).
    await rl.consume('k', 'b', SMALL);
    await rl.consume('k', 'b', SMALL);
    const key = `${prefix}b:k:rolling`;
    expect(await redis.zcard(key)).toBe(2);
    // 10,000 decisions of other keys in one turn fill the queue; the next one, of k, is the
    // fallback's (its own first hit: number 1 there).
    const others = Array.from({ length: 10_000 }, (_, i) => rl.consume(`o${i}`, 'b', SMALL));
    const overflow = await rl.consume('k', 'b', SMALL);
    await Promise.all(others);
    expect(overflow.allowed).toBe(true);
    await rl.refund(overflow.hit!, SMALL);
    // Redis's two hits are both still there (the refund used to remove `<instance>:1`).
    expect(await redis.zcard(key)).toBe(2);
  }, 20_000);
});

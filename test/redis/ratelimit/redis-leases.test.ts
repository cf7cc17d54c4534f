import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEASE_GRACE_MS, LEASE_MS, MAX_LEASES } from '../../../src/adapters/ratelimit/redis-leases.ts';
import { RedisRateLimiter } from '../../../src/adapters/ratelimit/redis-limiter.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitDecision, RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';
import { REDIS_URL, redisAvailable } from '../../support/redis.ts';

/**
 * Leases (decision 0022): far from its limit an instance admits from tokens it reserved in Redis;
 * near the limit every decision is Redis's, and a refusal waits for other instances' leases, so the
 * limit stays exact across instances. Real Redis, two limiters as two instances.
 */
const connect = (): Redis => new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
const available = await redisAvailable('the Redis lease tests');

const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);
const RUN_PREFIX = `purerank:test:${randomBytes(8).toString('hex')}:`;
const ROLLING: RateLimitPolicy = { kind: 'rolling', limit: 100, windowMs: DAY_MS };
const FIXED: RateLimitPolicy = { kind: 'fixed', limit: 100, windowMs: HOUR_MS };

describe.skipIf(!available)('RedisRateLimiter leases (real Redis)', () => {
  const clients: Redis[] = [];
  const limiters: RedisRateLimiter[] = [];
  let clock: ManualClock;
  let prefix: string;
  let testNo = 0;
  const limiter = (): { rl: RedisRateLimiter; redis: Redis } => {
    const redis = connect();
    clients.push(redis);
    const rl = new RedisRateLimiter({ redis, clock, prefix });
    limiters.push(rl);
    return { rl, redis };
  };
  const admitted = (ds: RateLimitDecision[]) => ds.filter((d) => d.allowed).length;

  beforeEach(() => {
    clock = new ManualClock(T0);
    prefix = `${RUN_PREFIX}${testNo++}:`;
  });
  afterEach(async () => {
    await Promise.all(limiters.splice(0).map((l) => l.close()));
    const redis = connect();
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${RUN_PREFIX}*`, count: 1000 })) keys.push(...batch);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    for (const c of clients.splice(0)) c.disconnect();
  });

  it.each([ROLLING, FIXED])(
    'far from the limit one round trip admits several requests; the answers count down as one ($kind)',
    async (policy) => {
      const { rl, redis } = limiter();
      const scripts = await countScripts(redis, async () => {
        const first = await rl.consume('k', 'b', policy);
        expect(first).toMatchObject({ allowed: true, remaining: 99 });
        for (let i = 0; i < 5; i++) {
          expect(await rl.consume('k', 'b', policy)).toMatchObject({ allowed: true, remaining: 98 - i });
        }
      });
      // 100 / 16: a lease of 6 tokens, one round trip for six requests.
      expect(scripts).toBe(1);
      expect(rl.leasesHeld).toBe(1);
      await rl.flush();
      expect(rl.leasesHeld).toBe(0);
      expect((await rl.peek('k', 'b', policy)).remaining).toBe(94);
    },
  );

  it('settling writes the hits a lease admitted at the times they were admitted (rolling)', async () => {
    const { rl, redis } = limiter();
    const first = await rl.consume('k', 'b', ROLLING);
    clock.advance(10);
    await rl.consume('k', 'b', ROLLING);
    clock.advance(10);
    await rl.consume('k', 'b', ROLLING);
    const key = `${prefix}b:k:rolling`;
    // Before settling: the lease's six tokens are reserved in its hash, no hit is written yet.
    expect(await redis.zcard(key)).toBe(0);
    expect(await redis.hlen(`${key}:leases`)).toBe(1);
    await rl.flush();
    const scores = (await redis.zrange(key, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1).map(Number);
    expect(scores).toEqual([T0, T0 + 10, T0 + 20]);
    expect(first.resetAtMs).toBe(T0 + DAY_MS);
    expect(await redis.hlen(`${key}:leases`)).toBe(0);
  });

  it.each([ROLLING, FIXED])(
    'a refund of a leased token before its lease ends counts once ($kind)',
    async (policy) => {
      const { rl } = limiter();
      await rl.consume('k', 'b', policy);
      const second = await rl.consume('k', 'b', policy);
      await rl.refund(second.hit!, policy);
      await rl.refund(second.hit!, policy);
      await rl.flush();
      expect((await rl.peek('k', 'b', policy)).remaining).toBe(99);
    },
  );

  it.each([ROLLING, FIXED])(
    "exact across instances: a refusal recalls another instance's lease and waits for its unused tokens ($kind)",
    async (policy) => {
      const a = limiter();
      const b = limiter();
      // A takes a lease of six and uses one; B then floods the key.
      expect(await a.rl.consume('k', 'b', policy)).toMatchObject({ allowed: true });
      expect(a.rl.leasesHeld).toBe(1);
      await sleep(100); // A's recall subscription is up
      const t0 = performance.now();
      const decisions = await Promise.all(Array.from({ length: 150 }, () => b.rl.consume('k', 'b', policy)));
      // B's refusal recalled A's lease (its time is far from over, the clock stands still): A
      // settled it at once, and B's retry had its five unused tokens.
      expect(admitted(decisions)).toBe(99);
      expect(performance.now() - t0).toBeLessThan(2_000);
      expect(a.rl.leasesHeld).toBe(0);
      await b.rl.flush();
      const peek = await a.rl.peek('k', 'b', policy);
      expect(peek).toMatchObject({ allowed: false, remaining: 0 });
      for (const d of decisions.filter((x) => !x.allowed)) expect(d.retryAfterMs).toBeGreaterThan(0);
    },
    10_000,
  );

  it.each([ROLLING, FIXED])(
    'an instance that dies holding a lease leaves its tokens counted: stricter, never over the limit ($kind)',
    async (policy) => {
      const a = limiter();
      const b = limiter();
      await a.rl.consume('k', 'b', policy);
      // Killed: its connection gone, its lease never settled.
      a.redis.disconnect();
      const t0 = performance.now();
      const flood = Promise.all(Array.from({ length: 150 }, () => b.rl.consume('k', 'b', policy)));
      await sleep(50);
      // Past the lease's end and the grace: presumed dead, B stops waiting for it.
      clock.advance(LEASE_MS + LEASE_GRACE_MS + 1);
      const decisions = await flood;
      // Its six tokens stay counted: 94 for B, 100 in all with the one A admitted.
      expect(admitted(decisions)).toBe(94);
      // The wait is bounded (the recall waits double from 20 ms), not the window.
      expect(performance.now() - t0).toBeLessThan(8_000);
    },
    20_000,
  );

  it('holds at most MAX_LEASES leases; past that, decisions are Redis’s one by one and still exact', async () => {
    const { rl } = limiter();
    const keys = MAX_LEASES + 200;
    // In turns of 4,000 (a turn holds at most 10,000 decisions waiting for Redis).
    const each = async () => {
      const out: RateLimitDecision[] = [];
      for (let from = 0; from < keys; from += 4_000) {
        const to = Math.min(keys, from + 4_000);
        const part = Array.from({ length: to - from }, (_, i) => rl.consume(`k${from + i}`, 'b', ROLLING));
        out.push(...(await Promise.all(part)));
      }
      return out;
    };
    expect(admitted(await each())).toBe(keys);
    expect(rl.leasesHeld).toBe(MAX_LEASES);
    // Every key still counts exactly: a second request of each leaves 98.
    for (const d of await each()) expect(d).toMatchObject({ allowed: true, remaining: 98 });
    await rl.flush();
    expect(rl.leasesHeld).toBe(0);
  }, 30_000);

  it('close() gives back every unused token', async () => {
    const { rl } = limiter();
    const other = limiter();
    for (let i = 0; i < 10; i++) await rl.consume(`k${i}`, 'a', FIXED);
    expect(rl.leasesHeld).toBe(10);
    await rl.close();
    for (let i = 0; i < 10; i++) expect((await other.rl.peek(`k${i}`, 'a', FIXED)).remaining).toBe(99);
  });
});

/** How many scripts this client sent while `run` ran (EVALSHA calls, counted on the way through). */
async function countScripts(redis: Redis, run: () => Promise<void>): Promise<number> {
  let n = 0;
  const original = redis.evalsha.bind(redis);
  (redis as unknown as { evalsha: (...args: unknown[]) => unknown }).evalsha = (...args: unknown[]) => {
    n++;
    return (original as (...a: unknown[]) => unknown)(...args);
  };
  try {
    await run();
  } finally {
    (redis as unknown as { evalsha: unknown }).evalsha = original;
  }
  return n;
}

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../../src/adapters/ratelimit/redis-limiter.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';
import { REDIS_URL, redisAvailable } from '../../support/redis.ts';

const connect = (): Redis => new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
const available = await redisAvailable('the Redis rate-limit tests');

const ROLLING: RateLimitPolicy = { kind: 'rolling', limit: 1000, windowMs: DAY_MS };
const HOURLY: RateLimitPolicy = { kind: 'fixed', limit: 10_000, windowMs: HOUR_MS };
const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);
/** Unique per run, so parallel runs and real data never share keys; everything under it is deleted. */
const RUN_PREFIX = `purerank:test:${randomBytes(8).toString('hex')}:`;

describe.skipIf(!available)('RedisRateLimiter (real Redis)', () => {
  const clients: Redis[] = [];
  let clock: ManualClock;
  let prefix: string;
  let testNo = 0;
  const limiter = (): RedisRateLimiter => {
    const redis = connect();
    clients.push(redis);
    return new RedisRateLimiter({ redis, clock, prefix });
  };

  beforeEach(() => {
    clock = new ManualClock(T0);
    prefix = `${RUN_PREFIX}${testNo++}:`;
  });
  afterEach(async () => {
    const redis = clients[0] ?? connect();
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${RUN_PREFIX}*`, count: 1000 })) keys.push(...batch);
    if (keys.length > 0) await redis.del(...keys);
    if (!clients.includes(redis)) redis.disconnect();
    for (const c of clients.splice(0)) await c.quit();
  });
  afterAll(() => {
    for (const c of clients) c.disconnect();
  });

  it('rolling: admits exactly the limit and names when the oldest hit leaves', async () => {
    const rl = limiter();
    for (let i = 0; i < 1000; i++) {
      const d = await rl.consume('k', 'b', ROLLING);
      expect(d).toMatchObject({ allowed: true, remaining: 999 - i, resetAtMs: T0 + DAY_MS });
      clock.advance(60_000);
    }
    const denied = await rl.consume('k', 'b', ROLLING);
    expect(denied).toEqual({
      allowed: false,
      limit: 1000,
      remaining: 0,
      resetAtMs: T0 + DAY_MS,
      retryAfterMs: T0 + DAY_MS - clock.now(),
    });
    clock.set(T0 + DAY_MS);
    expect(await rl.consume('k', 'b', ROLLING)).toMatchObject({ allowed: true, remaining: 0 });
    const next = await rl.consume('k', 'b', ROLLING);
    expect(next).toMatchObject({ allowed: false, retryAfterMs: T0 + 60_000 + DAY_MS - clock.now() });
  });

  it('rolling: a hit counts until exactly t + windowMs', async () => {
    const rl = limiter();
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 1, windowMs: 1000 };
    expect((await rl.consume('k', 'b', policy)).allowed).toBe(true);
    clock.advance(999);
    expect(await rl.consume('k', 'b', policy)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    clock.advance(1);
    expect((await rl.consume('k', 'b', policy)).allowed).toBe(true);
  });

  it('fixed: aligned to the UTC hour, resets at the next boundary', async () => {
    const rl = limiter();
    const nextHour = Date.UTC(2025, 0, 15, 11);
    const policy: RateLimitPolicy = { ...HOURLY, limit: 500 };
    for (let i = 0; i < 500; i++) {
      expect(await rl.consume('k', 'a', policy)).toMatchObject({ allowed: true, remaining: 499 - i });
    }
    expect(await rl.consume('k', 'a', policy)).toEqual({
      allowed: false,
      limit: 500,
      remaining: 0,
      resetAtMs: nextHour,
      retryAfterMs: nextHour - T0,
    });
    clock.set(nextHour);
    expect(await rl.consume('k', 'a', policy)).toMatchObject({
      allowed: true,
      remaining: 499,
      resetAtMs: nextHour + HOUR_MS,
    });
    // The counter key expires with its window rather than living forever.
    const ttl = await clients[0]!.pttl(`${prefix}a:k:${nextHour}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(HOUR_MS + 1000);
  });

  it('keeps scopes and keys independent', async () => {
    const rl = limiter();
    const one: RateLimitPolicy = { kind: 'rolling', limit: 1, windowMs: DAY_MS };
    const oneFixed: RateLimitPolicy = { kind: 'fixed', limit: 1, windowMs: HOUR_MS };
    expect((await rl.consume('k1', 'b', one)).allowed).toBe(true);
    expect((await rl.consume('k1', 'b', one)).allowed).toBe(false);
    expect((await rl.consume('k2', 'b', one)).allowed).toBe(true);
    expect((await rl.consume('k1', 'a', oneFixed)).allowed).toBe(true);
    expect((await rl.consume('k1', 'a', oneFixed)).allowed).toBe(false);
    expect((await rl.consume('k2', 'a', oneFixed)).allowed).toBe(true);
  });

  it.each([
    { kind: 'rolling', limit: 2, windowMs: DAY_MS },
    { kind: 'fixed', limit: 2, windowMs: HOUR_MS },
  ] satisfies RateLimitPolicy[])('refund makes room once and is idempotent ($kind)', async (policy) => {
    const rl = limiter();
    const first = await rl.consume('k', 'b', policy);
    await rl.consume('k', 'b', policy);
    expect((await rl.consume('k', 'b', policy)).allowed).toBe(false);
    await rl.refund(first.hit!, policy);
    await rl.refund(first.hit!, policy);
    expect((await rl.peek('k', 'b', policy)).remaining).toBe(1);
    expect((await rl.consume('k', 'b', policy)).allowed).toBe(true);
    await rl.refund(first.hit!, policy);
    expect((await rl.consume('k', 'b', policy)).allowed).toBe(false);
  });

  it.each([ROLLING, HOURLY])('peek does not count ($kind)', async (policy) => {
    const rl = limiter();
    for (let i = 0; i < 3; i++) {
      expect(await rl.peek('k', 'b', policy)).toMatchObject({ allowed: true, remaining: policy.limit });
    }
    const hit = await rl.consume('k', 'b', policy);
    expect(await rl.peek('k', 'b', policy)).toEqual({ ...hit, remaining: policy.limit - 1, hit: undefined });
  });

  it('peek at the limit reports the denial without counting', async () => {
    const rl = limiter();
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 2, windowMs: 10_000 };
    await rl.consume('k', 'b', policy);
    clock.advance(1000);
    await rl.consume('k', 'b', policy);
    clock.advance(1000);
    expect(await rl.peek('k', 'b', policy)).toEqual({
      allowed: false,
      limit: 2,
      remaining: 0,
      resetAtMs: T0 + 10_000,
      retryAfterMs: 8000,
    });
  });

  it.each([
    { kind: 'rolling', limit: 100, windowMs: DAY_MS },
    { kind: 'fixed', limit: 100, windowMs: HOUR_MS },
  ] satisfies RateLimitPolicy[])('two instances at the edge never over-admit ($kind)', async (policy) => {
    const [one, two] = [limiter(), limiter()];
    for (let i = 0; i < 90; i++) await one.consume('k', 'b', policy);
    const burst = Array.from({ length: 60 }, (_, i) => (i % 2 ? one : two).consume('k', 'b', policy));
    const decisions = await Promise.all(burst);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect((await two.peek('k', 'b', policy)).remaining).toBe(0);
  });

  it('reloads its scripts when Redis has forgotten them (restart, SCRIPT FLUSH)', async () => {
    const rl = limiter();
    await clients[0]!.script('FLUSH');
    expect((await rl.consume('k', 'b', ROLLING)).allowed).toBe(true);
    expect((await rl.consume('k', 'a', HOURLY)).allowed).toBe(true);
  });

  it('close() leaves a client it does not own open', async () => {
    const rl = limiter();
    await rl.close();
    expect(await clients[0]!.ping()).toBe('PONG');
  });
});

import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../../src/adapters/ratelimit/memory-limiter.ts';
import { RedisRateLimiter } from '../../../src/adapters/ratelimit/redis-limiter.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';
import { PrivateRedis } from '../../support/private-redis.ts';
import { REDIS_URL, redisAvailable } from '../../support/redis.ts';

const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);
const RUN_PREFIX = `purerank:test:${randomBytes(8).toString('hex')}:`;
const available = await redisAvailable('the Redis batch and fallback tests');

describe.skipIf(!available)('RedisRateLimiter: one script per turn of the event loop (real Redis)', () => {
  const clients: Redis[] = [];
  let clock: ManualClock;
  let prefix: string;
  let n = 0;
  const limiter = (): { rl: RedisRateLimiter; redis: Redis } => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    clients.push(redis);
    return { rl: new RedisRateLimiter({ redis, clock, prefix }), redis };
  };
  beforeEach(() => {
    clock = new ManualClock(T0);
    prefix = `${RUN_PREFIX}b${n++}:`;
  });
  afterEach(async () => {
    const redis = clients[0] ?? new Redis(REDIS_URL);
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${RUN_PREFIX}*`, count: 1000 })) keys.push(...batch);
    if (keys.length > 0) await redis.del(...keys);
    if (!clients.includes(redis)) redis.disconnect();
    for (const c of clients.splice(0)) await c.quit();
  });

  it.each([
    { kind: 'rolling', limit: 100, windowMs: DAY_MS },
    { kind: 'fixed', limit: 100, windowMs: HOUR_MS },
  ] satisfies RateLimitPolicy[])(
    '300 decisions of one key in one turn admit exactly the limit ($kind)',
    async (policy) => {
      const { rl, redis } = limiter();
      const sent = await commandsSent(redis, async () => {
        const decisions = await Promise.all(Array.from({ length: 300 }, () => rl.consume('k', 'b', policy)));
        const admitted = decisions.filter((d) => d.allowed);
        expect(admitted).toHaveLength(100);
        // In order: the remaining counts go 99, 98, … 0, each once.
        expect(admitted.map((d) => d.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
        for (const d of decisions.filter((x) => !x.allowed)) expect(d.retryAfterMs).toBeGreaterThan(0);
      });
      // 300 decisions in one turn: three scripts of at most 128, not 300 round trips, and one more
      // that settles the lease the first decision took (decision 0022).
      expect(sent).toBeLessThanOrEqual(4);
    },
  );

  it('decisions of many keys in one turn are each their own key’s', async () => {
    const { rl } = limiter();
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 3, windowMs: DAY_MS };
    // 40 keys asked 5 times each, in one turn; even keys in scope b, odd keys in scope a.
    const ask = (i: number) => ({ key: `k${i % 40}`, scope: i % 2 ? ('a' as const) : ('b' as const) });
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => rl.consume(ask(i).key, ask(i).scope, policy)),
    );
    const per = new Map<string, number>();
    decisions.forEach((d, i) => {
      const id = `${ask(i).scope}:${ask(i).key}`;
      per.set(id, (per.get(id) ?? 0) + (d.allowed ? 1 : 0));
    });
    expect(per.size).toBe(40);
    for (const admitted of per.values()) expect(admitted).toBe(3);
    expect((await rl.peek('k0', 'b', policy)).remaining).toBe(0);
    expect((await rl.peek('k1', 'a', policy)).remaining).toBe(0);
    // Same key id, the other scope: untouched.
    expect((await rl.peek('k0', 'a', policy)).remaining).toBe(3);
  });
});

/**
 * How many scripts this client sent while `run` ran: its EVALSHA calls are counted on the way through
 * (the shared server's own statistics would count other suites' commands too). An EVAL after a
 * NOSCRIPT answer (a fresh server) is the same script's second try, not another round of decisions.
 */
async function commandsSent(redis: Redis, run: () => Promise<void>): Promise<number> {
  let calls = 0;
  const evalsha = redis.evalsha.bind(redis);
  redis.evalsha = ((...args: Parameters<typeof evalsha>) => {
    calls++;
    return evalsha(...args);
  }) as typeof redis.evalsha;
  try {
    await run();
  } finally {
    redis.evalsha = evalsha;
  }
  return calls;
}

describe.skipIf(!available)('RedisRateLimiter: Redis goes away and comes back', () => {
  let server: PrivateRedis;
  const stops: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    server = await PrivateRedis.start();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await server.down();
  });
  afterAll(async () => {
    await server?.down();
  });

  it('decides per instance while Redis is down, says so once each way, and is Redis’s again after', async () => {
    const clock = new ManualClock(T0);
    // As the container builds it: no offline queue (a command fails at once while disconnected),
    // a time limit per command, reconnecting in the background.
    const redis = new Redis(server.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      retryStrategy: () => 100,
    });
    redis.on('error', () => {});
    await redis.connect();
    const fallback = new MemoryRateLimiter({ clock });
    const events: string[] = [];
    const rl = new RedisRateLimiter({
      redis,
      clock,
      prefix: 'rl:',
      fallback,
      onFallback: (state) => events.push(state),
    });
    stops.push(async () => {
      await rl.close();
      redis.disconnect();
    });
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 5, windowMs: DAY_MS };
    for (let i = 0; i < 3; i++) expect((await rl.consume('k', 'b', policy)).allowed).toBe(true);
    expect(rl.degraded).toBe(false);

    await server.down();
    // Down: decisions keep coming, from the fallback (which starts from nothing: the documented drift).
    const during = [];
    for (let i = 0; i < 7; i++) during.push(await rl.consume('k', 'b', policy));
    expect(during.filter((d) => d.allowed)).toHaveLength(5);
    expect(during[6]).toMatchObject({ allowed: false, remaining: 0 });
    expect(rl.degraded).toBe(true);
    expect(events).toEqual(['redis-unavailable']);

    await server.up();
    const deadline = Date.now() + 10_000;
    let back = false;
    while (!back && Date.now() < deadline) {
      await sleep(100);
      await rl.consume('fresh', 'b', policy);
      back = !rl.degraded;
    }
    expect(back).toBe(true);
    expect(events).toEqual(['redis-unavailable', 'redis-back']);
    // The restarted server is empty (no persistence): Redis's count, not the fallback's.
    expect(await rl.consume('k', 'b', policy)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('without a fallback, a Redis error is the caller’s', async () => {
    const clock = new ManualClock(T0);
    const redis = new Redis(server.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    redis.on('error', () => {});
    await redis.connect();
    const rl = new RedisRateLimiter({ redis, clock, prefix: 'rl:' });
    stops.push(async () => redis.disconnect());
    await server.down();
    await expect(rl.consume('k', 'b', { kind: 'fixed', limit: 1, windowMs: HOUR_MS })).rejects.toThrow();
  });
});

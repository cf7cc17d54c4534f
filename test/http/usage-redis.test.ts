import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../src/adapters/ratelimit/redis-limiter.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { HOUR_MS } from '../../src/core/clock.ts';
import { buildApp } from '../../src/http/app.ts';
import { bearer, createTestContext, T0, type TestContext } from '../support/context.ts';
import { REDIS_URL, redisAvailable } from '../support/redis.ts';

const available = await redisAvailable('the Redis usage test');
/** Unique per run; everything under it is deleted afterwards. */
const PREFIX = `purerank:test:${randomBytes(8).toString('hex')}:`;

/**
 * With Redis the decision is asynchronous (no fast path, every consume a round trip): usage is
 * recorded by the same decision, exactly once — counted, refunded by a 304, 429s apart.
 */
describe.skipIf(!available)('usage with the Redis limiter (the asynchronous decision)', () => {
  let ctx: TestContext;
  let redis: Redis;
  let app: FastifyInstance;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const limiter = new RedisRateLimiter({ redis, clock: ctx.clock, prefix: PREFIX });
    app = await buildApp({ ...ctx.container, limiter }, { logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    if (redis) {
      const keys = await redis.keys(`${PREFIX}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    await ctx?.close();
  });

  it('counts each admitted request once, refunds a 304, and counts 429s apart', async () => {
    const account = await createAccount(ctx.container.store, {
      name: 'redis-metered',
      plan: 'custom',
      rateLimitB: 4,
    });
    const { key, info } = await ctx.container.accountKeys.create(account.id, null);
    await ctx.container.freshness.refresh();
    const get = (headers: Record<string, string> = {}) =>
      app.inject({ url: '/api/v1/vendors', headers: { ...bearer(key), ...headers } });
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect((await get({ 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    for (let i = 0; i < 3; i++) expect((await get()).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await get()).statusCode).toBe(429);
    const series = await ctx.container.usage.hourly(account.id, 1);
    const b = series.find((s) => s.keyId === info.id && s.scope === 'b')!;
    expect(b.points).toEqual([{ t: (T0 / HOUR_MS) * HOUR_MS, requests: 4, limited: 2 }]);
  });
});

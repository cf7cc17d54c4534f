import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../../src/adapters/ratelimit/redis-limiter.ts';
import { buildApp } from '../../../src/http/app.ts';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { REDIS_URL, redisAvailable } from '../../support/redis.ts';

const available = await redisAvailable('the Redis fast-path test');
const PREFIX = `purerank:test:${randomBytes(8).toString('hex')}:`;

const FIXTURE = [
  { type: 'lab', slug: 'lab-one', name: 'Lab One', trusted: true },
  ...['apex', 'birch'].map((slug) => ({
    type: 'vendor',
    slug,
    name: slug.toUpperCase(),
    location: 'Canada',
    verified: true,
    listingPlan: 'premium',
    website: `https://${slug}.example`,
  })),
];

/**
 * With the limits in Redis the fast path answers cached reads of known keys too, once Redis has
 * admitted them (decision 0022); a refusal goes to Fastify, which decides again and answers 429.
 * Over a real socket: the fast path answers only there.
 */
describe.skipIf(!available)('fast path with the Redis limiter (real socket, real Redis)', () => {
  let ctx: TestContext;
  let redis: Redis;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    expect((await ctx.load(FIXTURE)).ok).toBe(true);
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const limiter = new RedisRateLimiter({ redis, clock: ctx.clock, prefix: PREFIX });
    app = await buildApp({ ...ctx.container, limiter }, { logger: false });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
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

  const get = (key: string, url = '/api/v1/vendors') => fetch(`${base}${url}`, { headers: bearer(key) });

  it('answers a known key’s repeat from the fast path, counted in Redis', async () => {
    const key = await ctx.keyFor('custom', 'fast-redis', { rateLimitB: 100 });
    const first = await get(key); // the key's first request: Fastify looks it up
    const firstBody = await first.text();
    expect(first.status).toBe(200);
    const before = app.fastPath.served;
    const second = await get(key);
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(firstBody);
    expect(app.fastPath.served).toBe(before + 1);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(98);
    expect(second.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('200 concurrent requests at the edge: exactly the limit admitted, the rest 429 from Fastify', async () => {
    const key = await ctx.keyFor('custom', 'edge-redis', { rateLimitB: 50 });
    expect((await get(key)).status).toBe(200); // known from here on: the fast path may take it
    const before = app.fastPath.served;
    const answers = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const res = await get(key);
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
      }),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(49);
    expect(limited).toHaveLength(151);
    for (const a of limited) {
      expect(JSON.parse(a.body)).toMatchObject({ error: { code: 'rate_limited' } });
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    // The admitted ones were the fast path's; Redis holds exactly the limit.
    expect(app.fastPath.served - before).toBe(49);
    const counted = await redis.keys(`${PREFIX}b:*:rolling`);
    const sizes = await Promise.all(counted.map((k) => redis.zcard(k)));
    expect(sizes).toContain(50);
  });
});

import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisRateLimiter } from '../../src/adapters/ratelimit/redis-limiter.ts';
import { loadConfig } from '../../src/config/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { buildApp } from '../../src/http/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { PrivateRedis } from '../support/private-redis.ts';

/*
 * Issue [9], faults survived: Redis stops under load and comes back. The service is built as
 * `serve` builds it (the container's Redis client and fallback, decision 0022), on a redis-server
 * of this test's own. While it is down no request fails: each instance decides the limits alone
 * (the documented fallback), /readyz says so; once it is back, decisions are Redis's again without
 * a restart.
 */

/** redis-server must be installed (it is wherever the shared Redis runs); CI must not skip. */
async function redisServerInstalled(): Promise<boolean> {
  try {
    const r = await PrivateRedis.start();
    await r.down();
    return true;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`redis-server is required when CI=true: ${String(err)}`);
    console.warn(`skipping the Redis outage test: ${String(err)}`);
    return false;
  }
}
const available = await redisServerInstalled();

describe.skipIf(!available)('Redis stops under load and comes back', () => {
  let server: PrivateRedis;
  let db: TestDatabase;
  let container: Container;
  let app: FastifyInstance;
  let base: string;
  const prefix = `purerank:test:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    server = await PrivateRedis.start();
    db = await createTestDatabase('sqlite');
    const config = loadConfig({
      DATABASE_URL: db.url,
      REDIS_URL: server.url,
      REDIS_PREFIX: prefix,
      PURERANK_SEED_DEMO: 'false',
      WEBHOOK_WORKER: 'false',
    });
    container = await createContainer(config);
    app = await buildApp(container, { logger: false });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await container?.close().catch(() => {});
    await server?.down();
    await db?.drop();
  });

  it('serves every request through the outage, and the limits are Redis’s again after it', async () => {
    await createAccount(container.store, { name: 'outage', plan: 'custom', rateLimitB: 100_000 });
    const keys = await Promise.all([1, 2, 3].map(() => createKey(container.store, 'outage', null)));
    await container.freshness.refresh();
    const limiter = container.limiter as RedisRateLimiter;

    // A steady load on the vendor list from three keys (both request paths: first requests go to
    // Fastify, repeats to the fast path), for the whole test.
    const statuses = new Map<number, number>();
    let running = true;
    const worker = async (key: string) => {
      while (running) {
        let status = 0;
        try {
          const res = await fetch(`${base}/api/v1/vendors?limit=5`, {
            headers: { authorization: `Bearer ${key}` },
          });
          await res.arrayBuffer();
          status = res.status;
        } catch {
          status = -1; // a connection error counts against the service too
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const load = keys.flatMap((k) => [worker(k.key), worker(k.key)]);
    const ready = async () => (await fetch(`${base}/readyz`)).status;

    await sleep(500);
    expect(limiter.degraded).toBe(false);
    expect(await ready()).toBe(200);

    await server.down();
    await sleep(1500);
    expect(limiter.degraded).toBe(true);
    expect(await ready()).toBe(503);
    const duringOutage = statuses.get(200) ?? 0;

    await server.up();
    const deadline = Date.now() + 10_000;
    while (limiter.degraded && Date.now() < deadline) await sleep(100);
    expect(limiter.degraded, 'back on Redis by itself within 10 s').toBe(false);
    expect(await ready()).toBe(200);
    await sleep(500);
    running = false;
    await Promise.all(load);

    // Nothing but 200s, before, during and after.
    expect([...statuses.keys()]).toEqual([200]);
    expect(duringOutage).toBeGreaterThan(0);
    // The restarted Redis (it keeps nothing) counts the hits admitted since it came back.
    const redis = new Redis(server.url);
    try {
      const counted = await redis.keys(`${prefix}rl:b:*:rolling`);
      expect(counted.length).toBe(3);
      for (const k of counted) expect(await redis.zcard(k)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});

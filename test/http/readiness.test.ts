import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { buildApp } from '../../src/http/app.ts';
import { bearer, createTestContext } from '../support/context.ts';
import { createTestDatabase, DIALECTS } from '../support/databases.ts';
import { PrivateRedis } from '../support/private-redis.ts';

/** `/readyz` for load balancers: the database (and Redis, when configured) answer, or 503. */
describe.each(DIALECTS)('readiness (%s)', (dialect) => {
  it('200 with the checks while the database answers; 503 in the documented body once it does not', async () => {
    const ctx = await createTestContext(dialect);
    try {
      const res = await ctx.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'not configured' } });

      // Over a real socket as a load balancer asks; another method is a 404 in the documented body.
      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const real = await fetch(`${base}/readyz`);
      expect(real.status).toBe(200);
      expect(await real.json()).toMatchObject({ status: 'ready' });
      const posted = await fetch(`${base}/readyz`, { method: 'POST' });
      expect(posted.status).toBe(404);
      expect(((await posted.json()) as { error: { code: string } }).error.code).toBe('not_found');

      // The database goes away under the running app: seen within the 250 ms a result is reused.
      await ctx.container.store.close();
      const closedAt = performance.now();
      let down = await ctx.app.inject({ url: '/readyz' });
      while (down.statusCode === 200 && performance.now() - closedAt < 2_000) {
        await sleep(25);
        down = await ctx.app.inject({ url: '/readyz' });
      }
      expect(performance.now() - closedAt).toBeLessThan(1_000);
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(down.json()).toEqual({
        error: {
          code: 'service_unavailable',
          message: 'Not ready: the database did not answer within 1 s.',
          status: 503,
          request_id: down.headers['x-request-id'],
        },
      });
      // Alive all the same: /healthz is the process, not its dependencies.
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await ctx.app.close();
      await ctx.container.close().catch(() => {});
    }
  });
});

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisUp(): Promise<boolean> {
  const c = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, retryStrategy: () => null });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.ping();
    return true;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`Redis is required when CI=true: ${String(err)}`);
    console.warn(`skipping the Redis readiness test: Redis not reachable at ${REDIS_URL}`);
    return false;
  } finally {
    c.disconnect();
  }
}
const redisAvailable = await redisUp();

describe.skipIf(!redisAvailable)('readiness and REDIS_PREFIX with Redis', () => {
  it('checks Redis, and every key the limiter writes is under REDIS_PREFIX', async () => {
    const prefix = `purerank-test-${randomBytes(6).toString('hex')}:`;
    const db = await createTestDatabase('sqlite');
    const config = loadConfig({
      DATABASE_URL: db.url,
      PURERANK_SEED_DEMO: 'false',
      REDIS_URL,
      REDIS_PREFIX: prefix,
    });
    const container = await createContainer(config);
    const app = await buildApp(container, { logger: false });
    const redis = new Redis(REDIS_URL);
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().checks).toEqual({ database: 'ok', redis: 'ok' });

      await createAccount(container.store, { name: 'acme', plan: 'enterprise' });
      const { key } = await createKey(container.store, 'acme', null);
      await container.freshness.refresh();
      expect((await app.inject({ url: '/api/v1/vendors', headers: bearer(key) })).statusCode).toBe(200);
      const written = await redis.keys(`${prefix}*`);
      expect(written.length).toBeGreaterThan(0);
      expect(written.every((k) => k.startsWith(`${prefix}rl:b:`))).toBe(true);
      await redis.del(...written);
    } finally {
      redis.disconnect();
      await app.close();
      await container.close();
      await db.drop();
    }
  });
});

/** redis-server must be installed (it is wherever the shared Redis runs); CI must not skip. */
async function redisServerInstalled(): Promise<boolean> {
  try {
    await (await PrivateRedis.start()).down();
    return true;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`redis-server is required when CI=true: ${String(err)}`);
    console.warn(`skipping the shared readiness check test: ${String(err)}`);
    return false;
  }
}
const redisServer = await redisServerInstalled();

/**
 * `/readyz` is reachable by anyone and each check is a database read plus a Redis PING: concurrent
 * calls share one check, and its result is reused for 250 ms, so the cost stays bounded whatever
 * the request rate; a change (Redis stopping) is still seen within about a second.
 */
describe.skipIf(!redisServer)('readiness under a flood of /readyz', () => {
  it('200 concurrent calls all answer from a handful of checks; Redis stopping is seen within ~1 s', async () => {
    const server = await PrivateRedis.start();
    const db = await createTestDatabase('sqlite');
    const config = loadConfig({
      DATABASE_URL: db.url,
      PURERANK_SEED_DEMO: 'false',
      WEBHOOK_WORKER: 'false',
      REDIS_URL: server.url,
      REDIS_PREFIX: `purerank-test-${randomBytes(6).toString('hex')}:`,
    });
    const container = await createContainer(config);
    const app = await buildApp(container, { logger: false });
    const stats = new Redis(server.url, { retryStrategy: () => null });
    stats.on('error', () => {});
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      // The container's own store, counted where the check reads it.
      const state = container.store.state;
      const read = state.read.bind(state);
      let reads = 0;
      state.read = () => {
        reads++;
        return read();
      };
      // PINGs as the Redis server counts them.
      const pings = async () => {
        const info = await stats.info('commandstats');
        return Number(/cmdstat_ping:calls=(\d+)/.exec(info)?.[1] ?? 0);
      };
      const pingsBefore = await pings();

      const t0 = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const res = await fetch(`${base}/readyz`);
          return { status: res.status, body: await res.json() };
        }),
      );
      const ms = performance.now() - t0;
      for (const a of answers)
        expect(a).toEqual({
          status: 200,
          body: { status: 'ready', checks: { database: 'ok', redis: 'ok' } },
        });
      // One check per 250 ms at most, plus the one running when the window ends.
      const bound = 2 + Math.ceil(ms / 250);
      expect(reads, `${reads} reads in ${Math.round(ms)} ms`).toBeLessThanOrEqual(bound);
      expect(reads).toBeLessThanOrEqual(6);
      const pinged = (await pings()) - pingsBefore;
      expect(pinged, `${pinged} PINGs in ${Math.round(ms)} ms`).toBeLessThanOrEqual(bound);
      expect(pinged).toBeGreaterThanOrEqual(1);

      // Redis stops: /readyz says so within the reuse window plus one check.
      await server.down();
      const downAt = performance.now();
      let status = 200;
      while (status === 200 && performance.now() - downAt < 3_000) {
        await sleep(20);
        status = (await fetch(`${base}/readyz`)).status;
      }
      expect(status).toBe(503);
      expect(performance.now() - downAt).toBeLessThan(1_300);
      // And back: 200 once the client has reconnected (it retries at most every 2 s).
      await server.up();
      const upAt = performance.now();
      while (status !== 200 && performance.now() - upAt < 10_000) {
        await sleep(50);
        status = (await fetch(`${base}/readyz`)).status;
      }
      expect(status).toBe(200);
    } finally {
      stats.disconnect();
      await app.close();
      await container.close().catch(() => {});
      await server.down();
      await db.drop();
    }
  }, 60_000);
});

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { buildApp } from '../../src/http/app.ts';
import { bearer, createTestContext } from '../support/context.ts';
import { createTestDatabase, DIALECTS } from '../support/databases.ts';

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

      // The database goes away under the running app.
      await ctx.container.store.close();
      const down = await ctx.app.inject({ url: '/readyz' });
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

import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS, SWEEP_MS } from '../../src/adapters/ratelimit/redis-leases.ts';
import type { RedisRateLimiter } from '../../src/adapters/ratelimit/redis-limiter.ts';
import { loadConfig } from '../../src/config/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { buildApp } from '../../src/http/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { PrivateRedis } from '../support/private-redis.ts';
import { type Service, serviceDir, startService, stopService } from './support/service.ts';

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
    // /readyz reuses a check's result for 250 ms (a 503 from just before may still answer).
    const readyBy = Date.now() + 1_000;
    while ((await ready()) !== 200 && Date.now() < readyBy) await sleep(50);
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

/*
 * Issue [9], D1: an instance starts while Redis is unreachable (a rolling restart or a crash
 * restart during a Redis outage must bring it back): on the in-memory fallback, with one warning
 * naming Redis and its URL (password hidden), and on shared limits once Redis answers. The real
 * program (`node bin/purerank.js serve`) on a port nobody listens on, then a redis-server of the
 * test's own started on that port.
 */
describe.skipIf(!available)('an instance started while Redis is unreachable', () => {
  const dir = serviceDir();
  let server: PrivateRedis;
  let service: Service | null = null;
  const prefix = `purerank:test:${randomBytes(6).toString('hex')}:`;
  const password = `s3cret-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    // A port of its own, free again once stopped: nothing listens there when the service starts.
    server = await PrivateRedis.start();
    await server.down();
  });
  afterAll(async () => {
    await stopService(service, 'SIGKILL');
    await server?.down();
    dir.cleanup();
  });

  it('starts on per-instance limits with one warning, and shares them once Redis answers', async () => {
    const started = Date.now();
    service = await startService(
      {
        DATABASE_URL: `sqlite:${dir.cwd}/purerank.db`,
        REDIS_URL: `redis://:${password}@127.0.0.1:${server.port}`,
        REDIS_PREFIX: prefix,
        PURERANK_SEED_DEMO: 'true',
      },
      dir.cwd,
    );
    const s = service;
    const startMs = Date.now() - started;
    const warnings = () =>
      s
        .output()
        .split('\n')
        .filter((l) => l.includes('PURERANK_REDIS_LIMITER'));
    expect(warnings(), s.output()).toEqual([
      expect.stringContaining(
        `Warning: Redis at redis://:***@127.0.0.1:${server.port} does not answer (connect ECONNREFUSED 127.0.0.1:${server.port}): starting with rate limits decided by this instance alone; they are shared once Redis answers (docs/reliability.md)`,
      ),
    ]);
    expect(s.output()).not.toContain(password);
    expect(s.demoKey, s.output()).not.toBeNull();
    const auth = { authorization: `Bearer ${s.demoKey}` };
    const vendors = async () => {
      const res = await fetch(`${s.base}/api/v1/vendors?limit=1`, { headers: auth });
      await res.arrayBuffer();
      return res.status;
    };

    // Serving on the fallback: every request answered, /readyz says Redis is away, and the first
    // decisions' fall-back repeats no warning.
    for (let i = 0; i < 5; i++) expect(await vendors()).toBe(200);
    const notReady = await fetch(`${s.base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { error: { message: string } }).error.message).toBe(
      'Not ready: Redis did not answer within 1 s.',
    );
    expect(warnings()).toHaveLength(1);

    // Redis comes up on that port: the client (retrying at most every 2 s) gets through, and the
    // decisions are Redis's from then on: the key's first decision there takes a lease (decision
    // 0022), and what the answers count down, Redis holds once the lease is settled.
    await server.up();
    const redis = new Redis(server.url);
    try {
      const counted = async () => redis.keys(`${prefix}rl:b:*`);
      const deadline = Date.now() + 10_000;
      while ((await counted()).length === 0 && Date.now() < deadline) {
        expect(await vendors()).toBe(200);
        await sleep(100);
      }
      expect(await counted(), s.output()).not.toHaveLength(0);
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${s.base}/api/v1/vendors?limit=1`, { headers: auth });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      }
      expect(remaining).toEqual([remaining[0]!, remaining[0]! - 1, remaining[0]! - 2]);
      // The lease ends and is settled (its time, then the next sweep): every admitted hit is in the
      // key's rolling set, and Redis's count is what the last answer said was used.
      await sleep(LEASE_MS + SWEEP_MS + 1_000);
      const [rollingKey] = await redis.keys(`${prefix}rl:b:*:rolling`);
      expect(rollingKey, s.output()).toBeDefined();
      expect(await redis.zcard(rollingKey!)).toBe(1_000 - remaining[2]!);
      expect(warnings()).toHaveLength(2);
      expect(warnings()[1]).toContain('Redis answers again: rate limits are shared again');
      let ready = 0;
      const readyBy = Date.now() + 2_000;
      while (ready !== 200 && Date.now() < readyBy) {
        ready = (await fetch(`${s.base}/readyz`)).status;
        if (ready !== 200) await sleep(100);
      }
      expect(ready).toBe(200);
    } finally {
      redis.disconnect();
    }

    // And a graceful stop while Redis is away again exits 0 (the client is dropped, not QUIT).
    await server.down();
    expect(await vendors()).toBe(200);
    const stopAt = Date.now();
    expect(await stopService(s), s.output()).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(10_000);
    console.info(
      `[faults] started without Redis in ${startMs} ms (to the banner, the program's own start included)`,
    );
  }, 90_000);
});

import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { type Container, createContainer } from '../../../src/container.ts';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import { HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import { createKey } from '../../../src/core/keys/manage-keys.ts';
import { buildApp } from '../../../src/http/app.ts';
import { bearer } from '../../support/context.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../support/databases.ts';
import { B, T0 } from './fixtures.ts';

/**
 * Limit state survives a restart: the app and container are closed (the limiter flushes) and a new
 * container is built on the same database. TestContext.close() would drop the database, so this
 * suite assembles the pieces itself, as test/support/context.ts does.
 */
describe.each(DIALECTS)('rate limit across a restart (%s)', (dialect) => {
  let db: TestDatabase | null = null;
  const running: { app: FastifyInstance; container: Container }[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) {
      await r.app.close();
      await r.container.close();
    }
    await db?.drop();
    db = null;
  });

  const boot = async (url: string, clock: ManualClock) => {
    const config = loadConfig({ DATABASE_URL: url, PURERANK_SEED_DEMO: 'false' });
    const container = await createContainer(config, { clock, limiter: 'memory' });
    const app = await buildApp(container, { logger: false });
    await app.ready();
    const r = { app, container };
    running.push(r);
    return r;
  };
  const stop = async (r: { app: FastifyInstance; container: Container }) => {
    running.splice(running.indexOf(r), 1);
    await r.app.close();
    await r.container.close();
  };

  it('the remaining count continues after the process restarts', async () => {
    db = await createTestDatabase(dialect);
    const clock = new ManualClock(T0);
    const first = await boot(db.url, clock);
    await createAccount(first.container.store, { name: 'restart', plan: 'custom', rateLimitB: 20 });
    const key = (await createKey(first.container.store, 'restart', null)).key;
    const get = (app: FastifyInstance) => app.inject({ url: `${B}/vendors`, headers: bearer(key) });

    for (let i = 0; i < 7; i++) expect((await get(first.app)).statusCode).toBe(200);
    expect((await get(first.app)).headers['x-ratelimit-remaining']).toBe('12'); // 8 used
    await stop(first);

    clock.advance(HOUR_MS);
    const second = await boot(db.url, clock);
    const rs = [];
    for (let i = 0; i < 13; i++) rs.push(await get(second.app));
    expect(rs.map((r) => r.statusCode)).toEqual([...Array(12).fill(200), 429]);
    expect(rs[0]!.headers['x-ratelimit-remaining']).toBe('11');
    expect(rs[11]!.headers['x-ratelimit-remaining']).toBe('0');
    await stop(second);

    // And once more, now that the quota is spent.
    const third = await boot(db.url, clock);
    expect((await get(third.app)).statusCode).toBe(429);
  });
});

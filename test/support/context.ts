import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../../src/config/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import type { Plan } from '../../src/core/accounts/model.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { type ImportResult, importJsonLines } from '../../src/core/import/import-data.ts';
import type { ImportRecord } from '../../src/core/import/records.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { type AppOptions, buildApp } from '../../src/http/app.ts';
import { createTestDatabase, type Dialect } from './databases.ts';

/** 2026-06-01T12:00:00.000Z: tests run on a manual clock so time rules are exact. */
export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef-XYZ';

export interface TestContext {
  dialect: Dialect;
  databaseUrl: string;
  clock: ManualClock;
  container: Container;
  app: FastifyInstance;
  /** Imports records through the real import pipeline (validation included). */
  load(records: (ImportRecord | Record<string, unknown>)[]): Promise<ImportResult>;
  /** Creates an account (if needed) and a fresh key for it; returns the plaintext key. */
  keyFor(
    plan?: Plan,
    account?: string,
    limits?: { rateLimitA?: number; rateLimitB?: number },
  ): Promise<string>;
  close(): Promise<void>;
}

let accountSeq = 0;

export async function createTestContext(
  dialect: Dialect,
  opts: { config?: Partial<Config>; now?: number; app?: AppOptions } = {},
): Promise<TestContext> {
  const db = await createTestDatabase(dialect);
  const clock = new ManualClock(opts.now ?? T0);
  const config = loadConfig(
    { DATABASE_URL: db.url, PURERANK_ADMIN_TOKEN: ADMIN_TOKEN, PURERANK_SEED_DEMO: 'false' },
    opts.config,
  );
  const container = await createContainer(config, { clock, limiter: 'memory' });
  let app: FastifyInstance;
  try {
    app = await buildApp(container, { logger: false, ...opts.app });
    await app.ready();
  } catch (err) {
    await container.close();
    await db.drop();
    throw err;
  }
  return {
    dialect,
    databaseUrl: db.url,
    clock,
    container,
    app,
    async load(records) {
      const result = await importJsonLines(
        records.map((r) => JSON.stringify(r)),
        { store: container.store.imports, clock },
      );
      await container.freshness.refresh();
      return result;
    },
    async keyFor(plan = 'enterprise', account, limits) {
      const name = account ?? `acct-${plan}-${++accountSeq}`;
      if (!(await container.store.accounts.findByName(name))) {
        await createAccount(container.store, { name, plan, ...limits });
      }
      return (await createKey(container.store, name, null)).key;
    },
    async close() {
      await app.close();
      await container.close();
      await db.drop();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

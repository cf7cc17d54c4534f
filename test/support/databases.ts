import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

/** Server-level URL used to create and drop per-run databases. */
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const pgProblem = await postgresReachable();
if (pgProblem && process.env.CI === 'true') {
  // CI must exercise PostgreSQL: fail loudly instead of skipping.
  throw new Error(`PostgreSQL is required when CI=true but is unreachable at ${PG_ADMIN_URL}: ${pgProblem}`);
}
if (pgProblem) console.warn(`[tests] PostgreSQL unreachable (${pgProblem}); PostgreSQL suites are skipped.`);

/** The dialects every contract and HTTP suite runs against. */
export const DIALECTS: Dialect[] = pgProblem ? ['sqlite'] : ['sqlite', 'postgres'];

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temp SQLite file, or a new PostgreSQL database dropped afterwards. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'purerank-test-'));
    return {
      url: `sqlite:${join(dir, 'test.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `purerank_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

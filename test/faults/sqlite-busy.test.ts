import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/core/errors.ts';
import { isSqliteBusy, sqliteStoreError } from '../../src/storage/sqlite/busy.ts';
import { bearer, createTestContext, type TestContext } from '../support/context.ts';

/*
 * Another connection holds SQLite's write lock past the busy timeout (the delivery thread starved
 * of CPU mid-transaction, a CLI import, a backup): a write request is refused with 503 and
 * Retry-After, as on a PostgreSQL restart, and writes nothing. Before, the driver's
 * "database is locked" left as a 500 (seen in the CoA bench on a loaded machine).
 */

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('isSqliteBusy: the one list of "the database is busy" on SQLite', () => {
  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_BUSY_RECOVERY',
    'SQLITE_LOCKED',
    'SQLITE_LOCKED_SHAREDCACHE',
  ])('%s is busy', (code) => {
    const err = withCode('database is locked', code);
    expect(isSqliteBusy(err)).toBe(true);
    const mapped = sqliteStoreError(err) as StoreUnavailableError;
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    expect(mapped.details?.retryAfterSeconds).toBe(1);
    expect(mapped.message).not.toContain('locked');
  });

  it.each(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_BUSYNESS', 'SQLITE_IOERR'])(
    '%s is not, and passes unchanged',
    (code) => {
      const err = withCode('x', code);
      expect(isSqliteBusy(err)).toBe(false);
      expect(sqliteStoreError(err)).toBe(err);
    },
  );
});

describe('a write while another connection holds the SQLite write lock', () => {
  let ctx: TestContext | undefined;
  let other: BetterSqlite3.Database | undefined;
  afterEach(async () => {
    if (other?.inTransaction) other.exec('ROLLBACK');
    other?.close();
    await ctx?.close();
  });

  it('answers 503 service_unavailable with Retry-After after the busy timeout, writes nothing, and succeeds once the lock is gone', async () => {
    ctx = await createTestContext('sqlite');
    const key = await ctx.keyFor('enterprise');
    const create = () =>
      ctx!.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: { url: 'https://93.184.216.34/hooks/busy', events: ['*'] },
      });
    const list = () => ctx!.app.inject({ method: 'GET', url: '/v1/webhooks', headers: bearer(key) });

    other = new BetterSqlite3(ctx.databaseUrl.replace(/^sqlite:/, ''));
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const refused = await create();
    // The service's busy timeout (5 s) was waited out first: a lock held for a moment is no error.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ error: { code: 'service_unavailable', status: 503 } });
    expect(refused.body).not.toMatch(/SQLITE|locked|at .*\.js/);

    // Reads do not need the write lock (WAL): they are answered meanwhile.
    const during = await list();
    expect(during.statusCode).toBe(200);
    expect(during.json().data).toEqual([]);

    other.exec('ROLLBACK');
    const created = await create();
    expect(created.statusCode).toBe(201);
    const after = await list();
    expect(after.json().data).toHaveLength(1);
  }, 30_000);
});

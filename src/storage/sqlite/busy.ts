import { type Driver, SqliteDialect } from 'kysely';
import { StoreUnavailableError } from '../../core/errors.ts';
import { MappedDriver } from '../mapped-driver.ts';

/*
 * The one place that decides "the database is busy" on SQLite. Another connection (the delivery
 * thread, a CLI import, another process on the same file) can hold the write lock longer than the
 * busy timeout, or a read transaction may not be upgraded while another connection writes; SQLite
 * then fails the statement with SQLITE_BUSY (or SQLITE_LOCKED). Nothing was written, and the same
 * request a moment later succeeds: that is a 503 with Retry-After, not a 500.
 */

/** How long a client is told to wait: the lock is held for milliseconds to seconds, not minutes. */
export const SQLITE_BUSY_RETRY_AFTER_S = 1;

/** True for better-sqlite3's errors of a database locked by another connection (any extended code). */
export function isSqliteBusy(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/** The error as the store raises it: busy → StoreUnavailableError, anything else unchanged. */
export function sqliteStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  return isSqliteBusy(err) ? new StoreUnavailableError(err, SQLITE_BUSY_RETRY_AFTER_S) : err;
}

/** Kysely's SQLite dialect whose errors of a busy database are StoreUnavailableError. */
export class BusyMappingDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new MappedDriver(super.createDriver(), sqliteStoreError);
  }
}

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { BusyMappingDialect } from './busy.ts';

export interface SqliteHandle {
  db: Kysely<Database>;
  /** The raw connection, for the synchronous change probe (PRAGMA data_version). */
  raw: BetterSqlite3.Database;
}

/** Opens (creating the folder if needed) an SQLite file in WAL mode; ':memory:' for tests. */
export function connectSqlite(path: string): SqliteHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commit.
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  // 16 MiB of page cache: the hot pages of the batch index; the OS page cache holds the rest, and
  // the service stays within its memory budget (issue [1]: < 300 MB with the scale dataset).
  raw.pragma('cache_size = -16384');
  const db = new Kysely<Database>({ dialect: new BusyMappingDialect({ database: withStatementCache(raw) }) });
  return { db, raw };
}

/**
 * Kysely prepares every statement it runs; preparing costs more than running an indexed lookup.
 * Statements are reusable in better-sqlite3, so keep the most recent few hundred by SQL text.
 */
function withStatementCache(raw: BetterSqlite3.Database, max = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string): BetterSqlite3.Statement => {
    let stmt = cache.get(sql);
    if (stmt) return stmt;
    stmt = raw.prepare(sql);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(sql, stmt);
    return stmt;
  };
  return new Proxy(raw, {
    get(target, prop, receiver) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Detects commits by OTHER connections (the CLI, another instance): SQLite changes data_version
 * only for those, so this is exact and costs about a microsecond.
 */
export function sqliteChangeProbe(raw: BetterSqlite3.Database, minIntervalMs = 1): () => boolean {
  const stmt = raw.prepare('PRAGMA data_version').pluck();
  let seen = stmt.get() as number;
  // Asked on every request: at most once per millisecond, since each ask takes (and releases) a
  // read lock, two fcntl calls. Another process's commit is still seen within a millisecond.
  let nextAt = 0;
  return () => {
    const now = Date.now();
    if (now < nextAt) return false;
    nextAt = now + minIntervalMs;
    const current = stmt.get() as number;
    if (current === seen) return false;
    seen = current;
    return true;
  };
}

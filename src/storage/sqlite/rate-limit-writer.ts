import type BetterSqlite3 from 'better-sqlite3';

export interface HitRow {
  key_id: string;
  scope: string;
  second: number;
  count: number;
}

/**
 * SQLite's fast path for the rate limiter's once-a-second flush: one prepared upsert, run per row
 * inside one synchronous transaction (about a microsecond a row). Through the query builder the
 * same flush is one huge statement whose text changes with the row count, so it is compiled and
 * prepared afresh every second: with thousands of active keys that stalled requests for tens of ms.
 */
export function sqliteHitWriter(raw: BetterSqlite3.Database): (rows: HitRow[]) => boolean {
  // Prepared on first use: the store may be opened before the schema is migrated.
  let write: ((rows: HitRow[]) => void) | null = null;
  const prepare = () => {
    const upsert = raw.prepare(
      `insert into rate_limit_hits (key_id, scope, second, count) values (@key_id, @scope, @second, @count)
       on conflict (key_id, scope, second) do update set count = rate_limit_hits.count + excluded.count`,
    );
    return raw.transaction((rows: HitRow[]) => {
      for (const r of rows) upsert.run(r);
    });
  };
  return (rows) => {
    // The connection is shared with the query builder. While one of its (async) transactions is
    // open, these rows would join it and vanish on its rollback: decline, and let the caller take
    // the builder's path, which waits its turn.
    if (raw.inTransaction) return false;
    write ??= prepare();
    write(rows);
    return true;
  };
}

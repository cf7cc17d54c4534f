import type BetterSqlite3 from 'better-sqlite3';
import type { RateLimitHitCount } from '../../core/ratelimit/model.ts';

/**
 * Writes rows[from, to) with each second mapped to its stored bucket. Returns false, writing
 * nothing, when it cannot write now (see below).
 */
export type HitWriter = (
  rows: readonly RateLimitHitCount[],
  from: number,
  to: number,
  bucketOf: (second: number) => number,
) => boolean;

/**
 * SQLite's fast path for the rate limiter's once-a-second flush: one prepared upsert, run per row
 * inside one synchronous transaction (about a microsecond a row). Through the query builder the
 * same flush is one huge statement whose text changes with the row count, so it is compiled and
 * prepared afresh every second: with thousands of active keys that stalled requests for tens of ms.
 *
 * Rows are bound straight from the limiter's counts: no merged copy, no slice arrays. Duplicate
 * (key, scope, bucket) rows need no merging either, since each upsert adds to the last. That keeps
 * the flush's garbage small; it lives across several turns of the event loop (the flush is written
 * in slices), so whatever it allocates tends to be promoted to the old generation, where it
 * inflated the heap between major GCs.
 */
export function sqliteHitWriter(raw: BetterSqlite3.Database): HitWriter {
  // Prepared on first use: the store may be opened before the schema is migrated.
  let write: HitWriter | null = null;
  const prepare = (): HitWriter => {
    const upsert = raw.prepare(
      `insert into rate_limit_hits (key_id, scope, second, count) values (?, ?, ?, ?)
       on conflict (key_id, scope, second) do update set count = rate_limit_hits.count + excluded.count`,
    );
    const run = raw.transaction(
      (rows: readonly RateLimitHitCount[], from: number, to: number, bucketOf: (s: number) => number) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!;
          upsert.run(r.keyId, r.scope, bucketOf(r.second), r.count);
        }
      },
    );
    return (rows, from, to, bucketOf) => {
      run(rows, from, to, bucketOf);
      return true;
    };
  };
  return (rows, from, to, bucketOf) => {
    // The connection is shared with the query builder. While one of its (async) transactions is
    // open, these rows would join it and vanish on its rollback: decline, and let the caller take
    // the builder's path, which waits its turn.
    if (raw.inTransaction) return false;
    write ??= prepare();
    return write(rows, from, to, bucketOf);
  };
}

import type { Kysely } from 'kysely';
import type { RateLimitHitCount, RateLimitScope, RateLimitStateStore } from '../../core/ratelimit/model.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database } from '../schema.ts';
import type { HitWriter } from '../sqlite/rate-limit-writer.ts';
import { chunked } from './upsert.ts';

/**
 * Seconds per stored bucket. Hits are kept per minute and stamped with the minute's LAST second,
 * so a restored hit can only seem later than it was (the limiter bounds it by the restart time):
 * after a restart the limiter is at most a minute stricter than exact, never looser, and the
 * table holds 60× fewer rows. Decision 0005, "How exact the windows are across a restart".
 */
export const BUCKET_SECONDS = 60;
const bucketOf = (second: number): number =>
  Math.floor(second / BUCKET_SECONDS) * BUCKET_SECONDS + BUCKET_SECONDS - 1;

/** Rows per synchronous write slice (~0.5–1 ms of SQLite work). */
const WRITE_SLICE = 250;

/** Rate-limit hit counts per (key, scope, minute): the durable half of the in-memory limiter. */
export class KyselyRateLimitStateStore implements RateLimitStateStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
    /** A dialect's faster bulk writer, when it has one (SQLite: a prepared statement). */
    private readonly writeRows?: HitWriter,
  ) {}

  async addHits(counts: RateLimitHitCount[]): Promise<void> {
    if (counts.length === 0) return;
    let done = 0;
    if (this.writeRows) {
      // In slices with a turn of the event loop between them: thousands of active keys make a
      // flush of thousands of rows, and written at once they would stall every request for ~20 ms.
      for (; done < counts.length; done += WRITE_SLICE) {
        if (done > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const to = Math.min(done + WRITE_SLICE, counts.length);
        if (!this.writeRows(counts, done, to, bucketOf)) break;
      }
      if (done >= counts.length) return;
      // A transaction of the query builder is open: the rest goes its way, in turn.
    }
    // Merge duplicates first: one statement may not touch the same conflict key twice (PostgreSQL).
    const merged = new Map<string, RateLimitHitCount>();
    for (let i = done; i < counts.length; i++) {
      const c = counts[i]!;
      const second = bucketOf(c.second);
      const k = `${c.keyId}\u0000${c.scope}\u0000${second}`;
      const m = merged.get(k);
      if (m) m.count += c.count;
      else merged.set(k, { ...c, second });
    }
    const rows = [...merged.values()].map((c) => ({
      key_id: c.keyId,
      scope: c.scope,
      second: c.second,
      count: c.count,
    }));
    await this.db.transaction().execute(async (trx) => {
      for (const part of chunked(rows, Math.floor(this.caps.maxParameters / 4) - 1)) {
        await trx
          .insertInto('rate_limit_hits')
          .values(part)
          .onConflict((oc) =>
            oc.columns(['key_id', 'scope', 'second']).doUpdateSet((eb) => ({
              count: eb('rate_limit_hits.count', '+', eb.ref('excluded.count')),
            })),
          )
          .execute();
      }
    });
  }

  async loadHits(sinceSecond: number): Promise<RateLimitHitCount[]> {
    const rows = await this.db
      .selectFrom('rate_limit_hits')
      .selectAll()
      .where('second', '>=', sinceSecond)
      .where('count', '>', 0)
      .orderBy('second')
      .execute();
    return rows.map((r) => ({
      keyId: r.key_id,
      scope: r.scope as RateLimitScope,
      second: Number(r.second),
      count: r.count,
    }));
  }

  async pruneHits(beforeSecond: number): Promise<void> {
    await this.db.deleteFrom('rate_limit_hits').where('second', '<', beforeSecond).execute();
  }
}

import { type Kysely, sql } from 'kysely';
import type { RateLimitScope } from '../../core/ratelimit/model.ts';
import type { UsageDayRow, UsageRow, UsageStore } from '../../core/usage/ports.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database } from '../schema.ts';
import { chunked } from './upsert.ts';

/** Columns per inserted row (bind parameters). */
const COLUMNS = 6;

/**
 * usage_hourly on both backends. Writes are additive upserts, so the flushes of several instances
 * add up; reads go through the primary key (key_id, scope, hour) for an account's keys, and the
 * retention's delete through the index on hour.
 */
export class KyselyUsageStore implements UsageStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
  ) {}

  async add(rows: readonly UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    // One statement may not touch one conflict key twice (PostgreSQL): merge duplicates first.
    const merged = new Map<string, UsageRow>();
    for (const r of rows) {
      const k = `${r.keyId}\u0000${r.scope}\u0000${r.hour}`;
      const m = merged.get(k);
      if (!m) merged.set(k, { ...r });
      else {
        m.requests += r.requests;
        m.limited += r.limited;
        if (r.lastAt !== null && (m.lastAt === null || r.lastAt > m.lastAt)) m.lastAt = r.lastAt;
      }
    }
    const values = [...merged.values()].map((r) => ({
      key_id: r.keyId,
      scope: r.scope,
      hour: r.hour,
      requests: r.requests,
      limited: r.limited,
      last_at: r.lastAt,
    }));
    const insert = (db: Kysely<Database>, part: typeof values) =>
      db
        .insertInto('usage_hourly')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['key_id', 'scope', 'hour']).doUpdateSet((eb) => ({
            requests: eb('usage_hourly.requests', '+', eb.ref('excluded.requests')),
            limited: eb('usage_hourly.limited', '+', eb.ref('excluded.limited')),
            // The later of the two; SQLite's max() of a NULL is NULL, so spelled out for both.
            last_at: sql<
              number | null
            >`case when usage_hourly.last_at is null or excluded.last_at > usage_hourly.last_at then coalesce(excluded.last_at, usage_hourly.last_at) else usage_hourly.last_at end`,
          })),
        )
        .execute();
    const parts = [...chunked(values, Math.floor(this.caps.maxParameters / COLUMNS) - 1)];
    // One statement is atomic by itself and holds no lock across an await (SQLite); several go in
    // one transaction, so a failed flush that the meter retries was not half written.
    if (parts.length === 1) await insert(this.db, parts[0]!);
    else
      await this.db.transaction().execute(async (trx) => {
        for (const part of parts) await insert(trx, part);
      });
  }

  async hourly(accountId: number, fromHour: number): Promise<UsageRow[]> {
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select(['key_id', 'scope', 'hour', 'requests', 'limited', 'last_at'])
      .where('key_id', 'in', this.accountKeyIds(accountId))
      .where('hour', '>=', fromHour)
      .execute();
    return rows.map((r) => ({
      keyId: r.key_id,
      scope: r.scope as RateLimitScope,
      hour: Number(r.hour),
      requests: Number(r.requests),
      limited: Number(r.limited),
      lastAt: r.last_at === null ? null : Number(r.last_at),
    }));
  }

  async daily(accountId: number, fromDay: number): Promise<UsageDayRow[]> {
    // Integer division on both backends (the hour is an integer column): the UTC day.
    const day = sql<number>`hour / 24`;
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select([
        'key_id',
        'scope',
        day.as('day'),
        (eb) => eb.fn.sum<number>('requests').as('requests'),
        (eb) => eb.fn.sum<number>('limited').as('limited'),
      ])
      .where('key_id', 'in', this.accountKeyIds(accountId))
      .where('hour', '>=', fromDay * 24)
      .groupBy(['key_id', 'scope', day])
      .execute();
    return rows.map((r) => ({
      keyId: r.key_id,
      scope: r.scope as RateLimitScope,
      day: Number(r.day),
      // PostgreSQL sums a bigint as numeric, which arrives as text.
      requests: Number(r.requests),
      limited: Number(r.limited),
    }));
  }

  async lastUsed(accountId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select(['key_id', (eb) => eb.fn.max('last_at').as('last_at')])
      .where('key_id', 'in', this.accountKeyIds(accountId))
      .groupBy('key_id')
      .execute();
    const out = new Map<string, number>();
    for (const r of rows) if (r.last_at !== null) out.set(r.key_id, Number(r.last_at));
    return out;
  }

  async prune(beforeHour: number): Promise<number> {
    const result = await this.db.deleteFrom('usage_hourly').where('hour', '<', beforeHour).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private accountKeyIds(accountId: number) {
    return this.db.selectFrom('api_keys').select('id').where('account_id', '=', accountId);
  }
}

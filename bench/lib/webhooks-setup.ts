import { Value } from '@sinclair/typebox/value';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { EVENT_DATA, type NewEvent } from '../../src/core/events/model.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { appendEvents } from '../../src/storage/stores/outbox-store.ts';
import { BenchError } from './procs.ts';
import { mulberry32 } from './stats.ts';

/**
 * The `webhooks` scenario's data, written into its own copy of the scale database (never into
 * scale.db): enterprise accounts that own scale vendors (what the import field `owner` records,
 * written here as the column it sets), and a backlog of outbox events of those vendors. See
 * bench/lib/webhooks.ts for the order these run in.
 */

export interface HookAccount {
  name: string;
  id: number;
  /** A Variant A key of the account: it registers the account's endpoint through the API. */
  key: string;
  /** Slugs of the vendors it owns. */
  vendors: string[];
}

/**
 * `count` enterprise accounts `bench-hook-NN`, one key each, each owning `vendorsEach` scale vendors
 * (the first count × vendorsEach by id, dealt round-robin). Opening the store migrates the copy,
 * so the webhook tables (and the fan-out cursor, at the outbox's end: migration 0005) exist after.
 */
export async function createHookAccounts(
  dbPath: string,
  count: number,
  vendorsEach: number,
): Promise<HookAccount[]> {
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`));
  try {
    const db = store.kysely;
    const vendors = await db
      .selectFrom('vendors')
      .select(['id', 'slug'])
      .orderBy('id')
      .limit(count * vendorsEach)
      .execute();
    if (vendors.length < count * vendorsEach)
      throw new BenchError(
        `webhooks: the database has ${vendors.length} vendors, not ${count * vendorsEach}`,
      );
    const out: HookAccount[] = [];
    for (let i = 0; i < count; i++) {
      const name = `bench-hook-${String(i).padStart(2, '0')}`;
      const account = await createAccount(store, { name, plan: 'enterprise' });
      out.push({
        name,
        id: account.id,
        key: (await createKey(store, name, 'bench webhooks')).key,
        vendors: [],
      });
    }
    await db.transaction().execute(async (trx) => {
      for (const [j, v] of vendors.entries()) {
        const a = out[j % count]!;
        a.vendors.push(v.slug);
        await trx.updateTable('vendors').set({ owner_account_id: a.id }).where('id', '=', v.id).execute();
      }
    });
    return out;
  } finally {
    await store.close();
  }
}

/** One event about `slug`: mostly score changes, some new reviews (longer bodies), as the outbox holds. */
function eventFor(slug: string, rnd: () => number, n: number): NewEvent {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  if (n % 10 === 9) {
    return {
      type: 'review.new',
      data: {
        vendor_slug: slug,
        review_id: `rev_bench_${n}`,
        rating: int(1, 5),
        title: 'Bench review',
        body: 'Arrived on time, sealed, with a CoA for the batch; purity as stated. '.repeat(int(1, 4)),
        author: `buyer-${int(1, 9999)}`,
        created_at: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
      },
    };
  }
  const previous = int(20, 90);
  const next = Math.min(100, Math.max(0, previous + int(-12, 12)));
  return {
    type: 'score.changed',
    data: {
      vendor_slug: slug,
      previous_score: previous,
      new_score: next,
      delta: next - previous,
      pillar_changes: { coa: int(-30, 30), purity: int(-10, 10), experience: int(-5, 5) },
    },
  };
}

export interface Backlog {
  /** Event ids per account (same order as the accounts): what each one's endpoint must receive. */
  eventIds: string[][];
  /** The outbox seq range written, and the fan-out cursor before it (must be below the first). */
  firstSeq: number;
  lastSeq: number;
  cursor: number;
  types: Record<string, number>;
}

/**
 * Appends `count` events of the accounts' vendors to the outbox in one transaction, through the
 * same function the import path uses (appendEvents: public ids, the vendor column, JSON data), each
 * `data` checked against its kind's schema first. Only while no service runs on the copy: the
 * service's worker must find them all waiting when it starts (a backlog), not watch them arrive.
 */
export async function writeBacklog(dbPath: string, accounts: HookAccount[], count: number): Promise<Backlog> {
  const rnd = mulberry32(0x7e6400c5);
  const owned = accounts.flatMap((a, i) => a.vendors.map((slug) => ({ slug, account: i })));
  const events: NewEvent[] = [];
  const accountOf: number[] = [];
  const types: Record<string, number> = {};
  for (let n = 0; n < count; n++) {
    const v = owned[n % owned.length]!;
    const e = eventFor(v.slug, rnd, n);
    if (!Value.Check(EVENT_DATA[e.type], e.data))
      throw new BenchError(`webhooks: generated ${e.type} data does not match its schema`);
    events.push(e);
    accountOf.push(v.account);
    types[e.type] = (types[e.type] ?? 0) + 1;
  }
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`));
  try {
    const db = store.kysely;
    const cursorRow = await db.selectFrom('webhook_state').select('outbox_seq').executeTakeFirst();
    if (!cursorRow) throw new BenchError('webhooks: no fan-out cursor (webhook_state) in the copy');
    const before = await db
      .selectFrom('outbox')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirstOrThrow();
    // A scale.db seeded by this schema was migrated while its outbox was empty: the cursor is at 0,
    // before the seed's 200,000 events, which the worker would fan out (and partly deliver) first.
    // Put it at the outbox's end as it stands, as migration 0005 does for an older database.
    if (Number(cursorRow.outbox_seq) < Number(before.seq ?? 0)) {
      await db
        .updateTable('webhook_state')
        .set({ outbox_seq: Number(before.seq) })
        .execute();
      cursorRow.outbox_seq = Number(before.seq);
    }
    await db.transaction().execute((trx) => appendEvents(trx, events, new Date().toISOString()));
    const rows = await db
      .selectFrom('outbox')
      .select(['seq', 'id'])
      .where('seq', '>', Number(before.seq ?? 0))
      .orderBy('seq')
      .execute();
    if (rows.length !== count)
      throw new BenchError(`webhooks: wrote ${count} events, found ${rows.length} after the outbox's end`);
    const cursor = Number(cursorRow.outbox_seq);
    const firstSeq = Number(rows[0]!.seq);
    if (cursor >= firstSeq) {
      throw new BenchError(
        `webhooks: the fan-out cursor (${cursor}) is not before the backlog (seq ${firstSeq}…): the worker would skip it`,
      );
    }
    // appendEvents keeps the order it was given: the n-th row is the n-th event.
    const eventIds = accounts.map((): string[] => []);
    for (const [n, r] of rows.entries()) eventIds[accountOf[n]!]!.push(r.id);
    return { eventIds, firstSeq, lastSeq: Number(rows[rows.length - 1]!.seq), cursor, types };
  } finally {
    await store.close();
  }
}

/** How the worker left the messages: by status, attempts in all, and messages sent more than once. */
export async function deliveryState(dbPath: string): Promise<{
  messages: Record<string, number>;
  attempts: number;
  retried: number;
  /** Attempts that did not succeed: how many, and by HTTP status and error (the most frequent few). */
  failedAttemptsTotal: number;
  failedAttempts: { httpStatus: number | null; error: string | null; count: number }[];
  cursor: number;
}> {
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`), { migrate: false });
  try {
    const db = store.kysely;
    const byStatus = await db
      .selectFrom('webhook_messages')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const retried = await db
      .selectFrom('webhook_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('attempts', '>', 1)
      .executeTakeFirstOrThrow();
    const notOk = db
      .selectFrom('webhook_attempts')
      .where((eb) =>
        eb.or([eb('http_status', 'is', null), eb('http_status', '<', 200), eb('http_status', '>=', 300)]),
      );
    const failedTotal = await notOk
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const failed = await notOk
      .select(['http_status', 'error', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['http_status', 'error'])
      .orderBy('n', 'desc')
      .limit(5)
      .execute();
    const cursor = await db.selectFrom('webhook_state').select('outbox_seq').executeTakeFirstOrThrow();
    return {
      messages: Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)])),
      attempts: Number(attempts.n),
      retried: Number(retried.n),
      failedAttemptsTotal: Number(failedTotal.n),
      failedAttempts: failed.map((r) => ({
        httpStatus: r.http_status === null ? null : Number(r.http_status),
        error: r.error,
        count: Number(r.n),
      })),
      cursor: Number(cursor.outbox_seq),
    };
  } finally {
    await store.close();
  }
}

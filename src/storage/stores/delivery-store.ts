import { randomBytes } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type {
  ClaimedMessage,
  DeliveryStore,
  DueEndpoint,
  DueQuery,
  FanOutPlanner,
  FanOutResult,
  FanOutTarget,
  OutboxLag,
} from '../../core/webhooks/delivery-ports.ts';
import type { MessageStatus, Subscription } from '../../core/webhooks/model.ts';
import type { AttemptRecord } from '../../core/webhooks/ports.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database, WebhookMessagesTable } from '../schema.ts';
import { storedEventFromRow } from './outbox-store.ts';
import { chunked } from './upsert.ts';
import { recordAttempt, secretsFromRow } from './webhook-store.ts';

/** Endpoints per claim statement (SQLite allows 500 terms in one compound SELECT). */
const ENDPOINTS_PER_CLAIM = 200;
/** Vendors looked up per query in a fan-out (bind parameters). */
const VENDORS_PER_QUERY = 1000;
const MESSAGE_COLUMNS = 11;

/**
 * The delivery worker's side of webhooks on both backends (the port: core/webhooks/delivery-ports.ts).
 * The claim is the one place the dialects differ in SQL: PostgreSQL row-locks what it claims and
 * skips rows another worker is claiming (`FOR UPDATE SKIP LOCKED`); SQLite has one writer at a time,
 * so a single `UPDATE … RETURNING` is atomic by itself.
 */
export class KyselyDeliveryStore implements DeliveryStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
  ) {}

  async outboxAhead(): Promise<boolean> {
    const r = await sql<{ top: number | string | null; cursor: number | string | null }>`
      select (select max(seq) from outbox) as top,
             (select outbox_seq from webhook_state where id = 1) as cursor`.execute(this.db);
    const row = r.rows[0];
    return row?.top != null && Number(row.top) > Number(row.cursor ?? 0);
  }

  /** Where fan-out has got to: the last `seq` fanned out. */
  private async cursor(db: Kysely<Database> | Transaction<Database>): Promise<number> {
    const state = await db
      .selectFrom('webhook_state')
      .select('outbox_seq')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(state.outbox_seq);
  }

  async outboxLag(limit: number): Promise<OutboxLag> {
    const state = await this.db
      .selectFrom('webhook_state')
      .select('outbox_seq')
      .where('id', '=', 1)
      .executeTakeFirst();
    const cursor = Number(state?.outbox_seq ?? 0);
    // At most `limit` index entries past the cursor: a scrape costs the same whatever the backlog.
    const counted = await sql<{ n: number | string }>`
      select count(*) as n from (
        select 1 from outbox where seq > ${cursor} order by seq limit ${limit}
      ) as ahead`.execute(this.db);
    const events = Number(counted.rows[0]?.n ?? 0);
    if (events === 0) return { events: 0, oldestAtMs: null };
    const oldest = await this.db
      .selectFrom('outbox')
      .select('created_at')
      .where('seq', '>', cursor)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    const at = oldest ? Date.parse(oldest.created_at) : Number.NaN;
    return { events, oldestAtMs: Number.isFinite(at) ? at : null };
  }

  /**
   * Outbox `seq` order is commit order because every transaction that writes events begins with
   * lockForWrite (state-store.ts): writers are serialised, so no event can commit later with a
   * smaller `seq` than one the cursor has already passed. (Without that lock a PostgreSQL sequence
   * hands out numbers at insert time, and a cursor could skip a late-committing event for good.)
   */
  async fanOut(plan: FanOutPlanner, batchSize: number, plans: readonly string[]): Promise<FanOutResult> {
    // The events are read before the write lock is taken, not under it: on SQLite the lock is the
    // database's one writer, and an upload's write on the main thread that meets it waits in
    // SQLite's busy handler, which sleeps the whole event loop (1, 2, 5… ms). Reading the batch
    // (its payloads) was most of the time this transaction held the lock (bench: 1.3 ms on
    // average, 23 ms at worst, on every wake).
    const seen = await this.cursor(this.db);
    const rows = await this.db
      .selectFrom('outbox')
      .selectAll()
      .where('seq', '>', seen)
      .orderBy('seq')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return { events: 0, messages: 0, endpointIds: [] };
    const events = rows.map(storedEventFromRow);
    return this.db.transaction().execute(async (trx) => {
      // An UPDATE first: SQLite takes the write lock now rather than upgrading a read later (which
      // fails when another connection wrote in between), and PostgreSQL locks the cursor's row until
      // commit. A second worker waits here, then finds the cursor moved and leaves these events to
      // the one that moved it: no event is fanned out twice. The unique (endpoint_id, event_id)
      // below is the second guard. Nothing is missed either: events commit in `seq` order (see
      // above), so a read that saw an event saw every one before it.
      await trx
        .updateTable('webhook_state')
        .set((eb) => ({ outbox_seq: eb.ref('outbox_seq') }))
        .where('id', '=', 1)
        .execute();
      if ((await this.cursor(trx)) !== seen) return { events: 0, messages: 0, endpointIds: [] };
      const targets: FanOutTarget[] = [];
      // No plan has webhooks: no targets (and `in ()` is not SQL); the cursor still moves on.
      const vendors = plans.length === 0 ? [] : [...new Set(events.map((e) => e.vendorSlug))];
      for (const slugs of chunked(vendors, VENDORS_PER_QUERY)) {
        // Only owners whose plan has webhooks: another account gets no message at all (it cannot
        // see or manage its endpoints), not even a failed one for later.
        const found = await trx
          .selectFrom('webhook_endpoints as e')
          .innerJoin('vendors as v', 'v.owner_account_id', 'e.account_id')
          .innerJoin('accounts as a', 'a.id', 'e.account_id')
          .select(['e.id', 'e.events', 'e.enabled', 'v.slug'])
          .where('v.slug', 'in', slugs)
          .where('a.plan', 'in', plans)
          .execute();
        for (const t of found) {
          // Written only from checkEvents' output (webhook-store.ts).
          targets.push({
            endpointId: t.id,
            vendorSlug: t.slug,
            events: JSON.parse(t.events) as Subscription,
            enabled: Number(t.enabled) === 1,
          });
        }
      }
      const messages = plan(events, targets);
      let created = 0;
      const rowsPerInsert = Math.floor(this.caps.maxParameters / MESSAGE_COLUMNS);
      for (const part of chunked(messages, Math.min(rowsPerInsert, 1000))) {
        const r = await trx
          .insertInto('webhook_messages')
          .values(
            part.map((m) => ({
              id: m.id,
              endpoint_id: m.endpointId,
              event_id: m.eventId,
              event_type: m.eventType,
              payload: m.payload,
              status: m.status,
              attempts: 0,
              next_attempt_at: m.nextAttemptAtMs,
              claim_token: null,
              last_attempt_at: null,
              created_at: m.createdAt,
            })),
          )
          .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
          .executeTakeFirst();
        created += Number(r.numInsertedOrUpdatedRows ?? 0);
      }
      await trx
        .updateTable('webhook_state')
        .set({ outbox_seq: events[events.length - 1]!.seq })
        .where('id', '=', 1)
        .execute();
      return {
        events: events.length,
        messages: created,
        endpointIds: [...new Set(messages.map((m) => m.endpointId))],
      };
    });
  }

  async dueEndpoints(q: DueQuery): Promise<DueEndpoint[]> {
    const { nowMs, plans, excludeEndpoints, excludeAccounts, limit } = q;
    if (plans.length === 0) return [];
    // Per enabled endpoint, its oldest due message: one seek in the (endpoint_id, status,
    // next_attempt_at) index each, however long a backlog is. Endpoints are few next to messages.
    // An account whose plan no longer has webhooks is left out: its messages wait (pending) for an
    // upgrade back.
    const perEndpoint = this.db
      .selectFrom('webhook_endpoints as e')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select((eb) => [
        'e.id',
        'e.account_id',
        eb
          .selectFrom('webhook_messages as m')
          .select('m.next_attempt_at')
          .whereRef('m.endpoint_id', '=', 'e.id')
          .where('m.status', '=', 'pending')
          .where('m.next_attempt_at', '<=', nowMs)
          .orderBy('m.next_attempt_at')
          .limit(1)
          .as('due'),
      ])
      .where('e.enabled', '=', 1)
      .where('a.plan', 'in', plans)
      .$if(excludeEndpoints.length > 0, (b) => b.where('e.id', 'not in', excludeEndpoints))
      .$if(excludeAccounts.length > 0, (b) => b.where('e.account_id', 'not in', excludeAccounts))
      .as('d');
    const rows = await this.db
      .selectFrom(perEndpoint)
      .select(['d.id', 'd.account_id', 'd.due'])
      .where('d.due', 'is not', null)
      .orderBy('d.due')
      .orderBy('d.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      endpointId: r.id,
      accountId: Number(r.account_id),
      oldestDueMs: Number(r.due),
    }));
  }

  async claim(
    slots: ReadonlyMap<string, number>,
    nowMs: number,
    leaseUntilMs: number,
    plans: readonly string[],
  ): Promise<ClaimedMessage[]> {
    const wanted = [...slots].filter(([, n]) => n > 0);
    if (wanted.length === 0 || plans.length === 0) return [];
    const token = `clm_${randomBytes(12).toString('hex')}`;
    const claimed: ClaimRow[] = [];
    for (const part of chunked(wanted, ENDPOINTS_PER_CLAIM)) {
      const query =
        this.caps.name === 'postgres'
          ? claimPostgres(part, nowMs, leaseUntilMs, token, plans)
          : claimSqlite(part, nowMs, leaseUntilMs, token, plans);
      claimed.push(...(await query.execute(this.db)).rows);
    }
    if (claimed.length === 0) return [];
    const endpoints = await this.db
      .selectFrom('webhook_endpoints')
      .select([
        'id',
        'account_id',
        'url',
        'secret',
        'previous_secret',
        'previous_secret_until',
        'failing_since',
      ])
      .where('id', 'in', [...new Set(claimed.map((c) => c.endpoint_id))])
      .execute();
    const byId = new Map(endpoints.map((e) => [e.id, e]));
    const out: ClaimedMessage[] = [];
    for (const c of claimed) {
      // Deleted in the meantime (its messages with it): nothing to send.
      const e = byId.get(c.endpoint_id);
      if (!e) continue;
      out.push({
        id: c.id,
        endpointId: c.endpoint_id,
        accountId: Number(e.account_id),
        eventId: c.event_id,
        eventType: c.event_type,
        payload: c.payload,
        status: c.status as MessageStatus,
        attempts: Number(c.attempts),
        url: e.url,
        secrets: secretsFromRow(e),
        claimToken: token,
        failingSince: e.failing_since,
      });
    }
    return out;
  }

  async recordAll(records: readonly AttemptRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    // One transaction for the batch: one commit (one fsync on SQLite, one round of WAL on
    // PostgreSQL) for hundreds of outcomes instead of one each.
    return this.db.transaction().execute(async (trx) => {
      // SQLite: a write first (to no row) takes the write lock at once, waiting out the busy
      // timeout. A read first would fail at once with SQLITE_BUSY when another connection (serve's
      // main thread, beside the delivery thread's own) writes meanwhile: SQLite does not wait to
      // upgrade a read transaction, and the outcomes were dropped (their messages sent twice).
      if (this.caps.name === 'sqlite')
        await sql`update webhook_state set outbox_seq = outbox_seq where 0`.execute(trx);
      // A message deleted while its attempt was under way (its endpoint was deleted, and the log
      // with it) has nothing left to record; its attempt row would break the foreign key.
      const present = new Set<string>();
      for (const ids of chunked([...new Set(records.map((r) => r.messageId))], 1000)) {
        const found = await trx.selectFrom('webhook_messages').select('id').where('id', 'in', ids).execute();
        for (const f of found) present.add(f.id);
      }
      const live = records.filter((r) => present.has(r.messageId));
      // The common outcome (a claimed message moves on, its endpoint unchanged) in two statements
      // per chunk; recordAttempt's one-by-one statements cost two round trips per outcome, which
      // on PostgreSQL held the worker to the pace of its writes. Same effect as recordAttempt.
      const plain = live.filter(isPlain);
      for (const part of chunked(plain, RECORDS_PER_STATEMENT)) {
        await trx.insertInto('webhook_attempts').values(part.map(attemptRow)).execute();
        const rows = part.map(
          (r) =>
            sql`(${r.messageId}, ${r.claimToken}, ${r.message.status}, cast(${r.message.nextAttemptAtMs} as ${sql.raw(this.caps.bigIntType)}), ${r.attempt.attemptedAt})`,
        );
        await sql`
          with v (id, token, status, next_attempt_at, attempted_at) as (values ${sql.join(rows)})
          update webhook_messages
          set attempts = attempts + 1, last_attempt_at = v.attempted_at, status = v.status,
              next_attempt_at = v.next_attempt_at, claim_token = null
          from v
          where webhook_messages.id = v.id and webhook_messages.claim_token = v.token`.execute(trx);
      }
      // Outcomes that change their endpoint (a failure streak begins or ends, a disable) keep
      // their order, one by one.
      for (const r of live) if (!isPlain(r)) await recordAttempt(trx, r);
      return records.length - live.length;
    });
  }

  async purgeSettled(beforeIso: string, limit: number): Promise<number> {
    const candidates = await this.db
      .selectFrom('webhook_messages')
      .select('id')
      .where('status', 'in', SETTLED)
      .where('created_at', '<', beforeIso)
      .where((eb) => eb.or([eb('last_attempt_at', 'is', null), eb('last_attempt_at', '<', beforeIso)]))
      .limit(limit)
      .execute();
    if (candidates.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      // The messages first, re-checked (a `recover` may have made one pending meanwhile), then the
      // attempts of those deleted. ON DELETE CASCADE already removes them; the second statement
      // makes that hold on a connection that does not enforce foreign keys too.
      const gone = await trx
        .deleteFrom('webhook_messages')
        .where(
          'id',
          'in',
          candidates.map((c) => c.id),
        )
        .where('status', 'in', SETTLED)
        .returning('id')
        .execute();
      const ids = gone.map((g) => g.id);
      if (ids.length > 0) await trx.deleteFrom('webhook_attempts').where('message_id', 'in', ids).execute();
      return ids.length;
    });
  }
}

const SETTLED: MessageStatus[] = ['succeeded', 'failed'];
/** Outcomes per multi-row statement: 6 parameters each in the attempts' insert. */
const RECORDS_PER_STATEMENT = 500;

type PlainRecord = AttemptRecord & {
  claimToken: string;
  message: NonNullable<AttemptRecord['message']>;
  endpoint: null;
};
const isPlain = (r: AttemptRecord): r is PlainRecord =>
  r.claimToken !== null && r.message !== null && r.endpoint === null;

const attemptRow = (r: AttemptRecord) => ({
  message_id: r.messageId,
  attempted_at: r.attempt.attemptedAt,
  http_status: r.attempt.httpStatus,
  latency_ms: r.attempt.latencyMs,
  error: r.attempt.error,
  trigger: r.attempt.trigger,
});

type ClaimRow = Pick<
  WebhookMessagesTable,
  'id' | 'endpoint_id' | 'event_id' | 'event_type' | 'payload' | 'status' | 'attempts'
>;

const RETURNED = sql`id, endpoint_id, event_id, event_type, payload, status, attempts`;

/**
 * The endpoints a claim may take messages of: enabled, of an account whose plan has webhooks. The
 * plans are bound values (WEBHOOK_PLANS, from the core's rule), never names written here.
 */
const claimable = (plans: readonly string[]) => sql`(select e.id from webhook_endpoints e
    join accounts a on a.id = e.account_id
    where e.enabled = 1 and a.plan in (${sql.join([...plans])}))`;

/**
 * PostgreSQL: per endpoint (a LATERAL subquery each, since FOR UPDATE is not allowed with UNION),
 * its oldest due messages up to its slots, row-locked and skipping rows another worker's claim has
 * locked; a row another claim committed meanwhile is re-checked against the new lease and dropped.
 */
function claimPostgres(
  part: [string, number][],
  nowMs: number,
  leaseUntilMs: number,
  token: string,
  plans: readonly string[],
) {
  const ids = part.map(([id]) => id);
  const limits = part.map(([, n]) => n);
  return sql<ClaimRow>`
    update webhook_messages set claim_token = ${token}, next_attempt_at = ${leaseUntilMs}
    where id in (
      select x.id from unnest(${ids}::text[], ${limits}::int[]) as q(endpoint_id, n)
      cross join lateral (
        select w.id from webhook_messages w
        where w.endpoint_id = q.endpoint_id and w.status = 'pending' and w.next_attempt_at <= ${nowMs}
        order by w.next_attempt_at
        limit q.n
        for update skip locked
      ) x
    )
    and endpoint_id in ${claimable(plans)}
    returning ${RETURNED}`;
}

/**
 * SQLite: one UPDATE … RETURNING over the union of each endpoint's oldest due messages. The
 * statement runs under the database's single write lock, so what it selects and what it updates
 * are the same rows and no other process claims them in between.
 */
function claimSqlite(
  part: [string, number][],
  nowMs: number,
  leaseUntilMs: number,
  token: string,
  plans: readonly string[],
) {
  const perEndpoint = part.map(
    ([id, n]) =>
      sql`select id from (select id from webhook_messages
        where endpoint_id = ${id} and status = 'pending' and next_attempt_at <= ${nowMs}
        order by next_attempt_at limit ${n})`,
  );
  return sql<ClaimRow>`
    update webhook_messages set claim_token = ${token}, next_attempt_at = ${leaseUntilMs}
    where id in (${sql.join(perEndpoint, sql` union all `)})
    and endpoint_id in ${claimable(plans)}
    returning ${RETURNED}`;
}

import { type Kysely, sql } from 'kysely';
import type { EventType } from '../../core/events/model.ts';
import type {
  Attempt,
  AttemptTrigger,
  Delivery,
  DisabledReason,
  EndpointSecrets,
  MessageStatus,
  Subscription,
  WebhookEndpoint,
} from '../../core/webhooks/model.ts';
import { TEST_EVENT_TYPE } from '../../core/webhooks/model.ts';
import type {
  AccountEvent,
  AttemptRecord,
  DeliveryQuery,
  EndpointChanges,
  EventListQuery,
  MessageFacts,
  SendableMessage,
  WebhookStore,
} from '../../core/webhooks/ports.ts';
import type { Database } from '../schema.ts';

type EndpointRow = Database['webhook_endpoints'];

/** Attempts shown per delivery: the newest; a message has at most the schedule's plus manual ones. */
const ATTEMPTS_PER_DELIVERY = 50;

/** Endpoints, messages and attempts of webhooks (the worker's claim and fan-out: delivery-store.ts). */
export class KyselyWebhookStore implements WebhookStore {
  constructor(private readonly db: Kysely<Database>) {}

  async countEndpoints(accountId: number): Promise<number> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insertEndpoint(e: WebhookEndpoint, secret: string, maxPerAccount: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // A write to the account's row first: PostgreSQL locks it until commit (a second create of
      // the account waits here, then counts this one), and SQLite takes its write lock at once.
      await trx
        .updateTable('accounts')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', e.accountId)
        .execute();
      const r = await trx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', e.accountId)
        .executeTakeFirstOrThrow();
      if (Number(r.n) >= maxPerAccount) return false;
      await trx
        .insertInto('webhook_endpoints')
        .values({
          id: e.id,
          account_id: e.accountId,
          url: e.url,
          events: JSON.stringify(e.events),
          description: e.description,
          enabled: e.enabled ? 1 : 0,
          disabled_reason: e.disabledReason,
          disabled_at: e.disabledAt,
          failing_since: e.failingSince,
          secret,
          previous_secret: null,
          previous_secret_until: null,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
      return true;
    });
  }

  async listEndpoints(accountId: number): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(endpointFromRow);
  }

  async getEndpoint(accountId: number, id: string): Promise<WebhookEndpoint | null> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return r ? endpointFromRow(r) : null;
  }

  async updateEndpoint(
    accountId: number,
    id: string,
    c: EndpointChanges,
    nowIso: string,
  ): Promise<WebhookEndpoint | null> {
    const n = await this.db
      .updateTable('webhook_endpoints')
      .set({ ...endpointChanges(c), updated_at: nowIso })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(n.numUpdatedRows) > 0 ? this.getEndpoint(accountId, id) : null;
  }

  async deleteEndpoint(accountId: number, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!owned) return false;
      // Explicit, not only ON DELETE CASCADE: SQLite enforces foreign keys only when asked to.
      await trx
        .deleteFrom('webhook_attempts')
        .where('message_id', 'in', (eb) =>
          eb.selectFrom('webhook_messages').select('webhook_messages.id').where('endpoint_id', '=', id),
        )
        .execute();
      await trx.deleteFrom('webhook_messages').where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
      return true;
    });
  }

  async secrets(endpointId: string): Promise<EndpointSecrets | null> {
    const r = await this.db
      .selectFrom('webhook_endpoints')
      .select(['secret', 'previous_secret', 'previous_secret_until'])
      .where('id', '=', endpointId)
      .executeTakeFirst();
    return r ? secretsFromRow(r) : null;
  }

  async rotateSecret(
    endpointId: string,
    secret: string,
    previousUntil: string | null,
    nowIso: string,
  ): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret: previousUntil === null ? null : eb.ref('secret'),
        previous_secret_until: previousUntil,
        secret,
        updated_at: nowIso,
      }))
      .where('id', '=', endpointId)
      .execute();
  }

  async listDeliveries(endpointId: string, q: DeliveryQuery): Promise<{ total: number; items: Delivery[] }> {
    let base = this.db.selectFrom('webhook_messages').where('endpoint_id', '=', endpointId);
    if (q.status) base = base.where('status', '=', q.status);
    if (q.eventType) base = base.where('event_type', '=', q.eventType);
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base
        .select([
          'id',
          'endpoint_id',
          'event_id',
          'event_type',
          'status',
          'attempts',
          'next_attempt_at',
          'created_at',
        ])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(q.limit)
        .offset(q.offset)
        .execute(),
    ]);
    const attempts = await this.attemptsOf(rows.map((r) => r.id));
    return {
      total: Number(count.n),
      items: rows.map((r) => ({
        id: r.id,
        endpointId: r.endpoint_id,
        eventId: r.event_id,
        eventType: r.event_type,
        status: r.status as MessageStatus,
        attemptCount: Number(r.attempts),
        // A pending message's next attempt; while a worker holds it, its lease's end.
        nextAttemptAt:
          r.status === 'pending' && r.next_attempt_at !== null
            ? new Date(Number(r.next_attempt_at)).toISOString()
            : null,
        createdAt: r.created_at,
        attempts: attempts.get(r.id) ?? [],
      })),
    };
  }

  private async attemptsOf(messageIds: string[]): Promise<Map<string, Attempt[]>> {
    const out = new Map<string, Attempt[]>();
    if (messageIds.length === 0) return out;
    // The newest ATTEMPTS_PER_DELIVERY of each message, chosen by the database: a message
    // redelivered thousands of times must not be read whole to show its last few.
    const ranked = this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .select(sql<number>`row_number() over (partition by message_id order by id desc)`.as('rn'))
      .where('message_id', 'in', messageIds)
      .as('a');
    const rows = await this.db
      .selectFrom(ranked)
      .selectAll()
      .where('rn', '<=', ATTEMPTS_PER_DELIVERY)
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const a: Attempt = {
        attemptedAt: r.attempted_at,
        httpStatus: r.http_status === null ? null : Number(r.http_status),
        latencyMs: Number(r.latency_ms),
        error: r.error,
        trigger: r.trigger as AttemptTrigger,
      };
      const list = out.get(r.message_id);
      if (list) list.push(a);
      else out.set(r.message_id, [a]);
    }
    return out;
  }

  async sendable(endpointId: string, deliveryId: string): Promise<SendableMessage | null> {
    const r = await this.db
      .selectFrom('webhook_messages as m')
      .innerJoin('webhook_endpoints as e', 'e.id', 'm.endpoint_id')
      .select([
        'm.id',
        'm.endpoint_id',
        'm.event_id',
        'm.event_type',
        'm.payload',
        'm.status',
        'm.attempts',
        'e.url',
        'e.secret',
        'e.previous_secret',
        'e.previous_secret_until',
      ])
      .where('m.id', '=', deliveryId)
      .where('m.endpoint_id', '=', endpointId)
      .executeTakeFirst();
    if (!r) return null;
    return {
      id: r.id,
      endpointId: r.endpoint_id,
      eventId: r.event_id,
      eventType: r.event_type,
      payload: r.payload,
      status: r.status as MessageStatus,
      attempts: Number(r.attempts),
      url: r.url,
      secrets: secretsFromRow(r),
    };
  }

  async insertSettled(m: MessageFacts): Promise<void> {
    // Written as failed until its one attempt is recorded: a crash in between leaves no message
    // pending forever, and `recover` can still send it.
    await this.db
      .insertInto('webhook_messages')
      .values({
        id: m.id,
        endpoint_id: m.endpointId,
        event_id: m.eventId,
        event_type: m.eventType,
        payload: m.payload,
        status: 'failed',
        attempts: 0,
        next_attempt_at: null,
        claim_token: null,
        last_attempt_at: null,
        created_at: m.createdAt,
      })
      .execute();
  }

  async record(r: AttemptRecord): Promise<void> {
    await this.db.transaction().execute((trx) => recordAttempt(trx, r));
  }

  async requeueFailed(endpointId: string, since: string, nowMs: number): Promise<number> {
    const r = await this.db
      .updateTable('webhook_messages')
      .set({ status: 'pending', attempts: 0, next_attempt_at: nowMs, claim_token: null })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'failed')
      .where('event_type', '!=', TEST_EVENT_TYPE)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async listEvents(q: EventListQuery): Promise<{ total: number; items: AccountEvent[] }> {
    // Per event, how its messages to the account's endpoints stand.
    const counts = this.db
      .selectFrom('webhook_messages as m')
      .innerJoin('webhook_endpoints as e', 'e.id', 'm.endpoint_id')
      .where('e.account_id', '=', q.accountId)
      .select((eb) => [
        'm.event_id',
        eb.fn.sum<number>(sql`case when m.status = 'succeeded' then 1 else 0 end`).as('succeeded'),
        eb.fn.sum<number>(sql`case when m.status = 'pending' then 1 else 0 end`).as('pending'),
        eb.fn.sum<number>(sql`case when m.status = 'failed' then 1 else 0 end`).as('failed'),
      ])
      .groupBy('m.event_id')
      .as('d');
    let base = this.db
      .selectFrom('outbox as o')
      .innerJoin('vendors as v', 'v.slug', 'o.vendor_slug')
      .leftJoin(counts, 'd.event_id', 'o.id')
      .where('v.owner_account_id', '=', q.accountId)
      .where('o.created_at', '>=', q.since);
    if (q.type) base = base.where('o.type', '=', q.type);
    if (q.vendorSlug) base = base.where('o.vendor_slug', '=', q.vendorSlug);
    if (q.deliverySuccess === true) {
      base = base.where('d.event_id', 'is not', null).where(sql<boolean>`d.pending + d.failed = 0`);
    } else if (q.deliverySuccess === false) {
      base = base.where('d.event_id', 'is not', null).where(sql<boolean>`d.pending + d.failed > 0`);
    }
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base
        .select([
          'o.id',
          'o.type',
          'o.vendor_slug',
          'o.data',
          'o.created_at',
          'd.succeeded',
          'd.pending',
          'd.failed',
        ])
        .orderBy('o.seq', 'desc')
        .limit(q.limit)
        .offset(q.offset)
        .execute(),
    ]);
    return {
      total: Number(count.n),
      items: rows.map((r) => ({
        id: r.id,
        type: r.type as EventType,
        vendorSlug: r.vendor_slug,
        createdAt: r.created_at,
        data: JSON.parse(r.data) as unknown,
        deliveries: {
          succeeded: Number(r.succeeded ?? 0),
          pending: Number(r.pending ?? 0),
          failed: Number(r.failed ?? 0),
        },
      })),
    };
  }
}

/**
 * Writes one attempt's outcome inside the caller's transaction (the worker batches several).
 * With a claim token the message moves only while that token still holds it.
 */
export async function recordAttempt(trx: Kysely<Database>, r: AttemptRecord): Promise<void> {
  await trx
    .insertInto('webhook_attempts')
    .values({
      message_id: r.messageId,
      attempted_at: r.attempt.attemptedAt,
      http_status: r.attempt.httpStatus,
      latency_ms: r.attempt.latencyMs,
      error: r.attempt.error,
      trigger: r.attempt.trigger,
    })
    .execute();
  let update = trx
    .updateTable('webhook_messages')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_attempt_at: r.attempt.attemptedAt,
      ...(r.message
        ? { status: r.message.status, next_attempt_at: r.message.nextAttemptAtMs, claim_token: null }
        : {}),
    }))
    .where('id', '=', r.messageId);
  if (r.claimToken !== null) update = update.where('claim_token', '=', r.claimToken);
  await update.execute();
  if (r.endpoint) {
    await trx
      .updateTable('webhook_endpoints')
      .set({ ...endpointChanges(r.endpoint), updated_at: r.attempt.attemptedAt })
      .where('id', '=', r.endpointId)
      .execute();
  }
}

function endpointChanges(c: EndpointChanges): Partial<EndpointRow> {
  const out: Partial<EndpointRow> = {};
  if (c.url !== undefined) out.url = c.url;
  if (c.events !== undefined) out.events = JSON.stringify(c.events);
  if (c.description !== undefined) out.description = c.description;
  if (c.enabled !== undefined) out.enabled = c.enabled ? 1 : 0;
  if (c.disabledReason !== undefined) out.disabled_reason = c.disabledReason;
  if (c.disabledAt !== undefined) out.disabled_at = c.disabledAt;
  if (c.failingSince !== undefined) out.failing_since = c.failingSince;
  return out;
}

export function endpointFromRow(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    accountId: Number(r.account_id),
    url: r.url,
    // Written only from checkEvents' output.
    events: JSON.parse(r.events) as Subscription,
    description: r.description,
    enabled: Number(r.enabled) === 1,
    disabledReason: r.disabled_reason as DisabledReason | null,
    disabledAt: r.disabled_at,
    failingSince: r.failing_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function secretsFromRow(r: {
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
}): EndpointSecrets {
  return { current: r.secret, previous: r.previous_secret, previousUntil: r.previous_secret_until };
}

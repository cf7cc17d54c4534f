import { type Kysely, sql } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Issue [7]: webhook endpoints, one message per (endpoint, event) with its delivery state, every
 * attempt, and the fan-out cursor over the outbox. Additive only.
 *
 * Times the worker compares (next_attempt_at) are epoch milliseconds, not ISO text: the claim query
 * compares and orders them on every poll, and an integer index is the cheapest on both backends.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event types, or ["*"].
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // 'gone' (410), 'failing' (5 days of failures), 'manual' (PATCH enabled=false); null when enabled.
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    // The first failure since the last success; null while deliveries succeed.
    .addColumn('failing_since', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    // The secret a rotation replaced, still signing until previous_secret_until.
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_account')
    .on('webhook_endpoints')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('webhook_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    // The exact body every attempt sends ({id, type, created, data}): byte-identical on retries.
    .addColumn('payload', 'text', (c) => c.notNull())
    // 'pending' (due at next_attempt_at), 'succeeded', 'failed' (retries exhausted or endpoint disabled).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Epoch ms. While a worker holds the message it is the lease's end (a crashed worker's claim
    // lapses by itself); null once the message is settled.
    .addColumn('next_attempt_at', caps.bigIntType)
    // Who holds the lease: a worker writes the outcome only while its token is still there.
    .addColumn('claim_token', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('webhook_messages_endpoint_event', ['endpoint_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_messages_due')
    .on('webhook_messages')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_messages_endpoint')
    .on('webhook_messages')
    .columns(['endpoint_id', 'status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('webhook_messages_event').on('webhook_messages').column('event_id').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', caps.autoIdType, (c) =>
      caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('message_id', 'text', (c) => c.notNull().references('webhook_messages.id').onDelete('cascade'))
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    // 'scheduled' | 'redeliver' | 'test'
    .addColumn('trigger', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_message')
    .on('webhook_attempts')
    .columns(['message_id', 'id'])
    .execute();

  // The fan-out's position in the outbox. Writers of events are serialised by lockForWrite
  // (state-store.ts), so outbox seq order is commit order and a cursor misses nothing.
  await db.schema
    .createTable('webhook_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('outbox_seq', caps.bigIntType, (c) => c.notNull())
    .execute();
  // Start after the events already on file: no endpoint existed to receive them.
  await sql`insert into webhook_state (id, outbox_seq) select 1, coalesce(max(seq), 0) from outbox`.execute(
    db,
  );
}

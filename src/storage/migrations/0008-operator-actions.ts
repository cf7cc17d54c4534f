import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Issue [8]: the operator decision log (core/operator/actions.ts). One row per operator decision,
 * written by the transaction of its change; only ever appended. Additive only.
 *
 * `vendor_slug` is a slug rather than a reference, as in the outbox: an entry outlives nothing it
 * names and never blocks a write. Listing is newest first by vendor (a vendor's page), by kind (the
 * review queue's recent decisions) and by time.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('operator_actions')
    .addColumn('id', caps.autoIdType, (c) =>
      caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    // 'batch.approved' | 'batch.rejected' | 'override.set' | 'override.cleared' | 'account.plan_changed'.
    .addColumn('action', 'text', (c) => c.notNull())
    // Null for an account's change.
    .addColumn('vendor_slug', 'text')
    // A batch id as stored, an override's field, an account's name.
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    // JSON: what the decision wrote (test facts, values, the plan before and after, the score move).
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('operator_actions_vendor')
    .on('operator_actions')
    .columns(['vendor_slug', 'id'])
    .execute();
  await db.schema
    .createIndex('operator_actions_action')
    .on('operator_actions')
    .columns(['action', 'id'])
    .execute();
  await db.schema.createIndex('operator_actions_at').on('operator_actions').column('at').execute();
}

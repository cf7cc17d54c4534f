import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Issue [3]: the event outbox, who set an override, which account wrote a reply, and the
 * per-vendor version that lets readers reload only the vendors a write touched.
 * Additive only, so a database migrated by 0001 keeps all of its data.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('outbox')
    .addColumn('seq', caps.autoIdType, (c) =>
      caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('vendor_slug', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_type').on('outbox').columns(['type', 'seq']).execute();
  await db.schema.createIndex('outbox_vendor').on('outbox').columns(['vendor_slug', 'seq']).execute();

  // Existing overrides were set by imports; say so rather than leave the field empty.
  await db.schema
    .alterTable('overrides')
    .addColumn('set_by', 'text', (c) => c.notNull().defaultTo('import'))
    .execute();
  await db.schema.alterTable('replies').addColumn('account_id', 'integer').execute();
  // The data version of the last write that touched the vendor: readers reload only those rows.
  await db.schema
    .alterTable('vendors')
    .addColumn('row_version', caps.bigIntType, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('vendors_row_version').on('vendors').column('row_version').execute();
  // No new index on batches: measured on the scale seed (1M batches), indexes on
  // (status, submitted_at) and on lab_id took the bulk load from 60 s to 92 s; the pending queue
  // and a lab's vendors are rare operator reads that a scan serves in well under a second.
}

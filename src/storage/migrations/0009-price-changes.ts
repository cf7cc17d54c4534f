import { type Kysely, sql } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Issue [10]: every change of a price listing, kept (who, when, old and new). One row per write that
 * created a listing or changed its price or stock, written by the import writer in the transaction
 * of the price write; only ever appended. Additive only.
 *
 * `effective_at` is the listing's own `updatedAt` after the change (when the price held, as the
 * vendor's feed says), `changed_at` the write's time and `changed_by` the write's reason (`import`,
 * `listing feed by ops@…`, `demo seed`). Daily price statistics read the history by peptide and
 * `effective_at`. The listings stored before this migration become each one first change, so an
 * upgraded database has a history from its current prices on.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  const dbl = caps.doubleType;
  await db.schema
    .createTable('price_changes')
    .addColumn('id', caps.autoIdType, (c) =>
      caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    )
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendors.id').onDelete('cascade'))
    .addColumn('peptide_id', 'integer', (c) => c.notNull().references('peptides.id').onDelete('cascade'))
    .addColumn('vial_mg', dbl, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // Null when the change created the listing.
    .addColumn('old_total_usd', dbl)
    .addColumn('old_in_stock', 'integer')
    .addColumn('old_updated_at', 'text')
    .addColumn('new_total_usd', dbl, (c) => c.notNull())
    .addColumn('new_in_stock', 'integer', (c) => c.notNull())
    .addColumn('effective_at', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('price_changes_peptide')
    .on('price_changes')
    .columns(['peptide_id', 'effective_at'])
    .execute();
  await sql`insert into price_changes
      (vendor_id, peptide_id, vial_mg, source, new_total_usd, new_in_stock, effective_at, changed_at, changed_by)
    select vendor_id, peptide_id, vial_mg, source, total_usd, in_stock, updated_at, updated_at, 'migration 0009'
    from prices`.execute(db);
}

import type { Insertable, Kysely, Transaction } from 'kysely';
import type { PriceHistoryStore } from '../../core/ports.ts';
import type { PriceSource } from '../../core/prices/model.ts';
import { isPriceChange, type ListingValues, listingKey } from '../../core/prices/price-changes.ts';
import type { PriceChange } from '../../core/prices/price-stats.ts';
import type { Database, PriceChangesTable, PricesTable } from '../schema.ts';
import { chunked } from './upsert.ts';

/**
 * Appends one price_changes row per listing the write creates or whose price or stock it changes
 * (core/prices/price-changes.ts decides), read against the rows as stored before the upsert, in the
 * write's transaction. Rows are taken in order, so a listing written twice in one chunk is compared
 * with its first value.
 */
export async function appendPriceChanges(
  trx: Transaction<Database>,
  rows: readonly Insertable<PricesTable>[],
  nowIso: string,
  changedBy: string,
): Promise<void> {
  if (rows.length === 0) return;
  const stored = new Map<string, ListingValues>();
  const vendorIds = [...new Set(rows.map((r) => r.vendor_id))];
  const peptideIds = [...new Set(rows.map((r) => r.peptide_id))];
  for (const vendors of chunked(vendorIds, 2000)) {
    for (const peptides of chunked(peptideIds, 2000)) {
      for (const r of await trx
        .selectFrom('prices')
        .select(['vendor_id', 'peptide_id', 'vial_mg', 'source', 'total_usd', 'in_stock', 'updated_at'])
        .where('vendor_id', 'in', vendors)
        .where('peptide_id', 'in', peptides)
        .execute()) {
        stored.set(listingKey(r.vendor_id, r.peptide_id, r.vial_mg, r.source), {
          totalUsd: r.total_usd,
          inStock: r.in_stock === 1,
          updatedAt: r.updated_at,
        });
      }
    }
  }
  const changes: Insertable<PriceChangesTable>[] = [];
  for (const r of rows) {
    const key = listingKey(r.vendor_id, r.peptide_id, r.vial_mg, r.source);
    const before = stored.get(key);
    const after: ListingValues = {
      totalUsd: r.total_usd,
      inStock: r.in_stock === 1,
      updatedAt: r.updated_at,
    };
    if (!isPriceChange(before, after)) continue;
    stored.set(key, after);
    changes.push({
      vendor_id: r.vendor_id,
      peptide_id: r.peptide_id,
      vial_mg: r.vial_mg,
      source: r.source,
      old_total_usd: before?.totalUsd ?? null,
      old_in_stock: before === undefined ? null : before.inStock ? 1 : 0,
      old_updated_at: before?.updatedAt ?? null,
      new_total_usd: after.totalUsd,
      new_in_stock: r.in_stock,
      effective_at: after.updatedAt,
      changed_at: nowIso,
      changed_by: changedBy,
    });
  }
  // 12 columns a row: 500 rows stay under SQLite's and PostgreSQL's bound-parameter limits.
  for (const part of chunked(changes, 500)) await trx.insertInto('price_changes').values(part).execute();
}

/** Reads a peptide's price history (the statistics' input), oldest first. */
export class KyselyPriceHistoryStore implements PriceHistoryStore {
  constructor(private readonly db: Kysely<Database>) {}

  async listPriceChanges(peptideId: number, beforeIso: string): Promise<PriceChange[]> {
    const rows = await this.db
      .selectFrom('price_changes as c')
      .innerJoin('vendors as v', 'v.id', 'c.vendor_id')
      .select([
        'v.slug as vendorSlug',
        'v.name as vendorName',
        'v.verified as verified',
        'c.vial_mg as vialMg',
        'c.source as source',
        'c.new_total_usd as totalUsd',
        'c.new_in_stock as inStock',
        'c.effective_at as effectiveAt',
        'c.id as id',
      ])
      .where('c.peptide_id', '=', peptideId)
      .where('c.effective_at', '<', beforeIso)
      .orderBy('c.effective_at')
      .orderBy('c.id')
      .execute();
    return rows.map((r) => ({
      vendorSlug: r.vendorSlug,
      vendorName: r.vendorName,
      verified: r.verified === 1,
      vialMg: r.vialMg,
      source: r.source as PriceSource,
      totalUsd: r.totalUsd,
      inStock: r.inStock === 1,
      effectiveAt: r.effectiveAt,
      seq: r.id,
    }));
  }
}

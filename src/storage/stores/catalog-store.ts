import type { Kysely, Selectable } from 'kysely';
import { comparePeptides, type Peptide } from '../../core/peptides/model.ts';
import type { CatalogStore, VendorEvidence } from '../../core/ports.ts';
import type { PriceSource, StoredPrice } from '../../core/prices/model.ts';
import type { OverrideMap } from '../../core/scoring/composite.ts';
import { NO_EVIDENCE, type VendorEvidenceSums } from '../../core/scoring/evidence.ts';
import type { EvidenceCutoffs, MethodParams } from '../../core/scoring/method.ts';
import type { ListingPlan, Pillar, Vendor, VendorDetail } from '../../core/vendors/model.ts';
import type { Database, PeptidesTable, VendorsTable } from '../schema.ts';
import { selectBatchRecords, toBatchRecord } from './batch-store.ts';
import { loadEvidence } from './evidence-query.ts';

export function toVendor(r: Selectable<VendorsTable>): Vendor {
  const p = [r.eff_coa, r.eff_purity, r.eff_sentiment, r.eff_transparency, r.eff_experience];
  const scored = r.score !== null && p.every((x) => x !== null);
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    location: r.location,
    description: r.description,
    website: r.website,
    listingPlan: r.listing_plan as ListingPlan,
    verified: r.verified === 1,
    // Too little evidence to score is a pending vendor too (docs/methodology.md): unscored, not guessed.
    pending: r.pending === 1 || !scored,
    verifiedAt: r.verified_at,
    claimed: r.owner_account_id !== null,
    pillars: scored
      ? {
          coa: r.eff_coa!,
          purity: r.eff_purity!,
          sentiment: r.eff_sentiment!,
          transparency: r.eff_transparency!,
          experience: r.eff_experience!,
        }
      : null,
    score: scored ? r.score : null,
    purity: r.avg_purity,
  };
}

const toPeptide = (r: Selectable<PeptidesTable>, aliases: string[]): Peptide => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  category: r.category,
  molecularWeight: r.molecular_weight,
  aliases,
});

export class KyselyCatalogStore implements CatalogStore {
  constructor(private readonly db: Kysely<Database>) {}

  async listVendors(): Promise<Vendor[]> {
    return (await this.db.selectFrom('vendors').selectAll().execute()).map(toVendor);
  }

  async listVendorsChangedSince(version: number): Promise<Vendor[]> {
    return (await this.db.selectFrom('vendors').selectAll().where('row_version', '>', version).execute()).map(
      toVendor,
    );
  }

  async scoreHistories(perVendor: number): Promise<Map<number, number[]>> {
    // Newest N per vendor with a window function, supported by both SQLite ≥ 3.25 and PostgreSQL.
    const rows = await this.db
      .selectFrom((qb) =>
        qb
          .selectFrom('score_history')
          .select((eb) => [
            'vendor_id',
            'score',
            'id',
            eb.fn
              .agg<number>('row_number')
              .over((ob) => ob.partitionBy('vendor_id').orderBy('id', 'desc'))
              .as('rn'),
          ])
          .as('h'),
      )
      .select(['vendor_id', 'score'])
      .where('rn', '<=', perVendor)
      .orderBy('vendor_id')
      .orderBy('id')
      .execute();
    const out = new Map<number, number[]>();
    for (const r of rows) {
      const list = out.get(r.vendor_id);
      if (list) list.push(r.score);
      else out.set(r.vendor_id, [r.score]);
    }
    return out;
  }

  async getVendorDetail(slug: string, historyLength: number): Promise<VendorDetail | null> {
    const row = await this.db.selectFrom('vendors').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!row) return null;
    const history = await this.db
      .selectFrom('score_history')
      .select('score')
      .where('vendor_id', '=', row.id)
      .orderBy('id', 'desc')
      .limit(historyLength)
      .execute();
    return { ...toVendor(row), scoreHistory: history.map((h) => h.score).reverse() };
  }

  async getPeptide(slug: string): Promise<Peptide | null> {
    const row = await this.db.selectFrom('peptides').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!row) return null;
    const aliases = await this.db
      .selectFrom('peptide_aliases')
      .select('alias')
      .where('peptide_id', '=', row.id)
      .orderBy('alias')
      .execute();
    return toPeptide(
      row,
      aliases.map((a) => a.alias),
    );
  }

  async peptidesStamp(): Promise<string> {
    // Every peptide upsert (aliases included) sets updated_at to the write's time; none is deleted.
    const r = await this.db
      .selectFrom('peptides')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('updated_at').as('last')])
      .executeTakeFirstOrThrow();
    return `${Number(r.n)}/${r.last ?? ''}`;
  }

  async listPeptides(): Promise<Peptide[]> {
    const [rows, aliases] = await Promise.all([
      this.db.selectFrom('peptides').selectAll().orderBy('name').execute(),
      this.db.selectFrom('peptide_aliases').selectAll().orderBy('alias').execute(),
    ]);
    const byPeptide = new Map<number, string[]>();
    for (const a of aliases) {
      const list = byPeptide.get(a.peptide_id);
      if (list) list.push(a.alias);
      else byPeptide.set(a.peptide_id, [a.alias]);
    }
    return rows.map((r) => toPeptide(r, byPeptide.get(r.id) ?? [])).sort(comparePeptides);
  }

  async listPrices(peptideId: number): Promise<StoredPrice[]> {
    const rows = await this.db
      .selectFrom('prices as p')
      .innerJoin('vendors as v', 'v.id', 'p.vendor_id')
      .select([
        'v.slug as vendorSlug',
        'v.name as vendorName',
        'v.owner_account_id as owner',
        'p.vial_mg as vialMg',
        'p.total_usd as totalUsd',
        'p.in_stock as inStock',
        'p.source as source',
        'p.updated_at as updatedAt',
      ])
      .where('p.peptide_id', '=', peptideId)
      .execute();
    return rows.map((r) => ({
      vendorSlug: r.vendorSlug,
      vendorName: r.vendorName,
      claimed: r.owner !== null,
      vialMg: r.vialMg,
      totalUsd: r.totalUsd,
      inStock: r.inStock === 1,
      source: r.source as PriceSource,
      updatedAt: r.updatedAt,
    }));
  }

  async listOfferings(vendorIds?: readonly number[]): Promise<{ peptideId: number; vendorId: number }[]> {
    if (vendorIds?.length === 0) return [];
    const rows = await this.db
      .selectFrom('prices')
      .select(['peptide_id', 'vendor_id'])
      .distinct()
      .$if(vendorIds !== undefined, (q) => q.where('vendor_id', 'in', vendorIds as number[]))
      .execute();
    return rows.map((r) => ({ peptideId: r.peptide_id, vendorId: r.vendor_id }));
  }

  async vendorEvidence(vendorId: number, recent: number): Promise<VendorEvidence> {
    const [count, names, rows] = await Promise.all([
      this.db
        .selectFrom('batches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('vendor_id', '=', vendorId)
        .where('status', '=', 'approved')
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('prices as pr')
        .innerJoin('peptides as p', 'p.id', 'pr.peptide_id')
        .select(['p.name', 'p.slug'])
        .distinct()
        .where('pr.vendor_id', '=', vendorId)
        .execute(),
      selectBatchRecords(this.db)
        .select((eb) => eb.fn.coalesce('b.tested_at', 'b.submitted_at').as('at'))
        .where('b.vendor_id', '=', vendorId)
        .where('b.status', 'in', ['approved', 'pending'])
        .orderBy('at', 'desc')
        .orderBy('b.batch_key')
        .limit(recent)
        .execute(),
    ]);
    return {
      coaCount: Number(count.n),
      peptideNames: names.sort(comparePeptides).map((n) => n.name),
      recent: rows.map(({ at: _at, ...r }) => toBatchRecord(r)),
    };
  }

  async scoreInputs(
    vendorId: number,
    cut: EvidenceCutoffs,
    method: MethodParams,
  ): Promise<{ evidence: VendorEvidenceSums; overrides: OverrideMap }> {
    const [evidence, rows] = await Promise.all([
      loadEvidence(this.db, [vendorId], cut, method),
      this.db.selectFrom('overrides').select(['field', 'value']).where('vendor_id', '=', vendorId).execute(),
    ]);
    const overrides: OverrideMap = {};
    for (const o of rows) overrides[o.field as Pillar | 'score'] = o.value;
    return { evidence: evidence.get(vendorId) ?? NO_EVIDENCE, overrides };
  }
}

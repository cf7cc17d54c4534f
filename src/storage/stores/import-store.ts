import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ChangeSignal } from '../../core/catalog/change-signal.ts';
import { batchKey, type ImportBatch } from '../../core/import/records.ts';
import type { ExistingKeys, ImportCounts, ImportStore } from '../../core/ports.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { BatchesTable, Database, PricesTable, ReviewsTable, VendorsTable } from '../schema.ts';
import { recomputeVendors } from './recompute.ts';
import { bumpVersion } from './state-store.ts';
import { chunked, upsertRows } from './upsert.ts';

const flag = (b: boolean | undefined): number | undefined => (b === undefined ? undefined : b ? 1 : 0);

/** Writes imports. Callers validate first (core/import); this trusts shapes and references. */
export class KyselyImportStore implements ImportStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
    private readonly signal: ChangeSignal,
  ) {}

  async existingKeys(batch: ImportBatch): Promise<ExistingKeys> {
    const wanted = referencedKeys(batch);
    const lookup = async (
      table: 'accounts' | 'vendors' | 'peptides' | 'labs' | 'reviews',
      col: string,
      values: Set<string>,
    ) => {
      const found = new Set<string>();
      for (const part of chunked([...values], 5000)) {
        const rows = await this.db
          .selectFrom(table)
          .select(`${col} as k` as never)
          .where(col as never, 'in', part as never)
          .execute();
        for (const r of rows as unknown as { k: string }[]) found.add(r.k);
      }
      return found;
    };
    return {
      accounts: await lookup('accounts', 'name', wanted.accounts),
      vendors: await lookup('vendors', 'slug', wanted.vendors),
      peptides: await lookup('peptides', 'slug', wanted.peptides),
      labs: await lookup('labs', 'slug', wanted.labs),
      reviews: await lookup('reviews', 'id', wanted.reviews),
    };
  }

  async apply(batch: ImportBatch, opts: { nowIso: string; reason: string }): Promise<ImportCounts> {
    return this.applyChunks([batch], opts);
  }

  /**
   * Applies several chunks (a streamed file, a generated scale dataset) in ONE transaction and
   * recomputes the affected vendors once at the end.
   */
  async applyChunks(
    chunks: Iterable<ImportBatch> | AsyncIterable<ImportBatch>,
    opts: { nowIso: string; reason: string; onChunk?: (counts: ImportCounts) => void },
  ): Promise<ImportCounts> {
    const result = await this.db.transaction().execute(async (trx) => {
      const counts: ImportCounts = {};
      const affected = new Set<string>();
      for await (const chunk of chunks) {
        await this.applyOne(trx, chunk, opts.nowIso, affected);
        for (const [type, list] of Object.entries(chunk)) {
          if (list.length) counts[type] = (counts[type] ?? 0) + list.length;
        }
        opts.onChunk?.(counts);
      }
      await recomputeVendors(trx, this.caps, [...affected], opts.nowIso, opts.reason);
      await bumpVersion(trx, this.caps, 'data', opts.nowIso);
      if (counts.account) await bumpVersion(trx, this.caps, 'keys', opts.nowIso);
      return counts;
    });
    this.signal.mark();
    return result;
  }

  private async applyOne(
    trx: Transaction<Database>,
    b: ImportBatch,
    now: string,
    affected: Set<string>,
  ): Promise<void> {
    const caps = this.caps;
    await upsertRows(
      trx,
      caps,
      'accounts',
      b.account.map((r) => ({
        name: r.name,
        plan: r.plan,
        rate_limit_a: r.rateLimitA,
        rate_limit_b: r.rateLimitB,
      })),
      ['name'],
      { defaults: { created_at: now } },
    );
    await upsertRows(
      trx,
      caps,
      'labs',
      b.lab.map((r) => ({ slug: r.slug, name: r.name, trusted: flag(r.trusted), verify_url: r.verifyUrl })),
      ['slug'],
      { defaults: { trusted: 0 } },
    );
    await upsertRows(
      trx,
      caps,
      'peptides',
      b.peptide.map((r) => ({
        slug: r.slug,
        name: r.name,
        category: r.category,
        molecular_weight: r.molecularWeight,
        updated_at: now,
      })),
      ['slug'],
      { defaults: { created_at: now } },
    );
    const withAliases = b.peptide.filter((p) => p.aliases !== undefined);
    if (withAliases.length) {
      const ids = await idMap(
        trx,
        'peptides',
        withAliases.map((p) => p.slug),
      );
      for (const part of chunked([...ids.values()], 5000)) {
        await trx.deleteFrom('peptide_aliases').where('peptide_id', 'in', part).execute();
      }
      const aliasRows = withAliases.flatMap((p) =>
        [...new Set(p.aliases)].map((alias) => ({ peptide_id: ids.get(p.slug)!, alias })),
      );
      await upsertRows(trx, caps, 'peptide_aliases', aliasRows, ['peptide_id', 'alias'], { doNothing: true });
    }

    const vendorRows: Partial<Insertable<VendorsTable>>[] = b.vendor.map((r) => ({
      slug: r.slug,
      name: r.name,
      location: r.location,
      description: r.description,
      website: r.website,
      listing_plan: r.listingPlan,
      verified: flag(r.verified),
      pending: flag(r.pending),
      verified_at: r.verifiedAt,
      updated_at: now,
    }));
    await upsertRows(trx, caps, 'vendors', vendorRows, ['slug'], {
      defaults: {
        location: '',
        description: '',
        listing_plan: 'free',
        verified: 0,
        pending: 0,
        created_at: now,
      },
    });
    for (const v of b.vendor) affected.add(v.slug);

    const vendorIds = await idMap(trx, 'vendors', [
      ...b.claim.map((r) => r.vendorSlug),
      ...b.price.map((r) => r.vendorSlug),
      ...b.batch.map((r) => r.vendorSlug),
      ...b.review.map((r) => r.vendorSlug),
      ...b.override.map((r) => r.vendorSlug),
    ]);
    const peptideIds = await idMap(trx, 'peptides', [
      ...b.price.map((r) => r.peptideSlug),
      ...b.batch.map((r) => r.peptideSlug),
    ]);
    const labIds = await idMap(
      trx,
      'labs',
      b.batch.flatMap((r) => (r.lab ? [r.lab] : [])),
    );

    if (b.claim.length) {
      const accountIds = new Map<string, number>();
      const names = [...new Set(b.claim.flatMap((c) => (c.account ? [c.account] : [])))];
      for (const part of chunked(names, 5000)) {
        for (const a of await trx
          .selectFrom('accounts')
          .select(['id', 'name'])
          .where('name', 'in', part)
          .execute()) {
          accountIds.set(a.name, a.id);
        }
      }
      for (const c of b.claim) {
        await trx
          .updateTable('vendors')
          .set({ owner_account_id: c.account ? accountIds.get(c.account)! : null, updated_at: now })
          .where('slug', '=', c.vendorSlug)
          .execute();
        affected.add(c.vendorSlug);
      }
    }

    const priceRows: Insertable<PricesTable>[] = b.price.map((r) => ({
      vendor_id: vendorIds.get(r.vendorSlug)!,
      peptide_id: peptideIds.get(r.peptideSlug)!,
      vial_mg: r.vialMg,
      source: r.source,
      total_usd: r.totalUsd,
      in_stock: r.inStock ? 1 : 0,
      updated_at: r.updatedAt,
    }));
    await upsertRows(trx, caps, 'prices', priceRows, ['vendor_id', 'peptide_id', 'vial_mg', 'source']);

    const batchRows: Partial<Insertable<BatchesTable>>[] = b.batch.map((r) => ({
      vendor_id: vendorIds.get(r.vendorSlug)!,
      batch_id: r.batchId.trim(),
      batch_key: batchKey(r.batchId),
      peptide_id: peptideIds.get(r.peptideSlug)!,
      purity: r.purity,
      lab_id: r.lab === undefined ? undefined : r.lab === null ? null : labIds.get(r.lab)!,
      test_method: r.testMethod,
      tested_at: r.testedAt,
      source: r.source,
      source_url: r.sourceUrl,
      status: r.status,
      submitted_at: r.submittedAt,
    }));
    await upsertRows(trx, caps, 'batches', batchRows, ['batch_key', 'vendor_id']);
    for (const r of b.batch) affected.add(r.vendorSlug);

    const reviewRows: Insertable<ReviewsTable>[] = b.review.map((r) => ({
      id: r.id,
      vendor_id: vendorIds.get(r.vendorSlug)!,
      rating: r.rating,
      title: r.title,
      body: r.body,
      author: r.author,
      created_at: r.createdAt,
    }));
    await upsertRows(trx, caps, 'reviews', reviewRows, ['id']);
    for (const r of b.review) affected.add(r.vendorSlug);
    await upsertRows(
      trx,
      caps,
      'replies',
      b.reply.map((r) => ({ review_id: r.reviewId, body: r.body, created_at: r.createdAt })),
      ['review_id'],
    );

    const sets = b.override.filter((o) => o.value !== null);
    await upsertRows(
      trx,
      caps,
      'overrides',
      sets.map((o) => ({
        vendor_id: vendorIds.get(o.vendorSlug)!,
        field: o.field,
        value: o.value!,
        reason: o.reason ?? '',
      })),
      ['vendor_id', 'field'],
      // When the override was first set; re-importing the same override must change nothing.
      { defaults: { created_at: now } },
    );
    for (const o of b.override) {
      if (o.value === null) {
        await trx
          .deleteFrom('overrides')
          .where('vendor_id', '=', vendorIds.get(o.vendorSlug)!)
          .where('field', '=', o.field)
          .execute();
      }
      affected.add(o.vendorSlug);
    }
  }
}

async function idMap(
  trx: Transaction<Database>,
  table: 'vendors' | 'peptides' | 'labs',
  slugs: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunked([...new Set(slugs)], 5000)) {
    for (const r of await trx.selectFrom(table).select(['id', 'slug']).where('slug', 'in', part).execute()) {
      out.set(r.slug, r.id);
    }
  }
  return out;
}

function referencedKeys(b: ImportBatch) {
  return {
    accounts: new Set(b.claim.flatMap((c) => (c.account ? [c.account] : []))),
    vendors: new Set([
      ...b.claim.map((r) => r.vendorSlug),
      ...b.price.map((r) => r.vendorSlug),
      ...b.batch.map((r) => r.vendorSlug),
      ...b.review.map((r) => r.vendorSlug),
      ...b.override.map((r) => r.vendorSlug),
    ]),
    peptides: new Set([...b.price.map((r) => r.peptideSlug), ...b.batch.map((r) => r.peptideSlug)]),
    labs: new Set(b.batch.flatMap((r) => (r.lab ? [r.lab] : []))),
    reviews: new Set(b.reply.map((r) => r.reviewId)),
  };
}

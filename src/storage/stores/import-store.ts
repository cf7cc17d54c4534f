import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ChangeSignal } from '../../core/catalog/change-signal.ts';
import { evidenceEvents } from '../../core/events/evidence-events.ts';
import { batchKey, type ImportBatch } from '../../core/import/records.ts';
import { chunkFactKeys, expectationFactKeys } from '../../core/import/write-facts.ts';
import {
  checkChunk,
  checkExpectations,
  keepDecisions,
  scoredBatchVendors,
} from '../../core/import/write-rules.ts';
import type { ActionLog } from '../../core/operator/actions.ts';
import type { ExistingKeys, ImportCounts, ImportStore, WriteExpectations } from '../../core/ports.ts';
import { DEFAULT_METHOD, type MethodParams } from '../../core/scoring/method.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { BatchesTable, Database, PricesTable, ReviewsTable, VendorsTable } from '../schema.ts';
import { appendActions } from './operator-actions.ts';
import { appendEvents } from './outbox-store.ts';
import { appendPriceChanges } from './price-history.ts';
import { type RecomputeResult, recomputeVendors } from './recompute.ts';
import { bumpVersion, lockForWrite } from './state-store.ts';
import { chunked, upsertRows } from './upsert.ts';
import { loadWriteFacts } from './write-facts-query.ts';

const flag = (b: boolean | undefined): number | undefined => (b === undefined ? undefined : b ? 1 : 0);

/**
 * Writes imports. Callers validate records first (core/import); this trusts shapes and references.
 * What depends on the stored data (write rules, which events a write causes and their payloads) is
 * decided by the core from facts this store reads inside the transaction; the store only persists.
 */
export class KyselyImportStore implements ImportStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
    private readonly signal: ChangeSignal,
    private readonly method: MethodParams = DEFAULT_METHOD,
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

  /** Like apply(), and also tells what the recomputation changed (the operator API shows it). */
  async applyWithResult(
    batch: ImportBatch,
    opts: { nowIso: string; reason: string; expect?: WriteExpectations; log?: ActionLog },
  ): Promise<{ counts: ImportCounts; recompute: RecomputeResult }> {
    let recompute: RecomputeResult | undefined;
    const counts = await this.applyChunks([batch], { ...opts, onRecompute: (r) => (recompute = r) });
    return { counts, recompute: recompute! };
  }

  /**
   * Recomputes every vendor from the evidence (`purerank scores recompute`, POST
   * /admin/v1/scores/recompute): one transaction, history and events as for any change.
   */
  async recomputeAll(opts: { nowIso: string; reason: string }): Promise<RecomputeResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      const rowVersion = await lockForWrite(trx);
      const r = await recomputeVendors(trx, this.caps, 'all', { ...opts, method: this.method, rowVersion });
      if (r.updated > 0) await bumpVersion(trx, this.caps, 'data', opts.nowIso);
      return r;
    });
    if (result.updated > 0) this.signal.mark();
    return result;
  }

  /**
   * Applies several chunks (a streamed file, a generated scale dataset) in ONE transaction and
   * recomputes the affected vendors once at the end.
   */
  async applyChunks(
    chunks: Iterable<ImportBatch> | AsyncIterable<ImportBatch>,
    opts: {
      nowIso: string;
      reason: string;
      onChunk?: (counts: ImportCounts) => void;
      onRecompute?: (result: RecomputeResult) => void;
      /** Conditions checked inside the transaction, under the write lock (operator writes). */
      expect?: WriteExpectations;
      /** The operator decision log's entries for this write, built by the core from the recomputation. */
      log?: ActionLog;
    },
  ): Promise<ImportCounts> {
    // On SQLite the transaction runs synchronously on the main thread from here to its commit; the
    // caller's lookups (existingKeys) ran in this same turn of the event loop. One turn between them
    // lets requests that arrived meanwhile through first (a small write, such as a queued CoA
    // upload, is otherwise one stretch of a few milliseconds that a cached read waits behind).
    await nextTurn();
    const result = await this.db.transaction().execute(async (trx) => {
      const rowVersion = await lockForWrite(trx);
      if (opts.expect)
        checkExpectations(opts.expect, await loadWriteFacts(trx, expectationFactKeys(opts.expect)));
      const counts: ImportCounts = {};
      const affected = new Set<string>();
      for await (const chunk of chunks) {
        await this.applyOne(trx, chunk, opts.nowIso, opts.reason, affected);
        for (const [type, list] of Object.entries(chunk)) {
          if (list.length) counts[type] = (counts[type] ?? 0) + list.length;
        }
        opts.onChunk?.(counts);
      }
      const recomputed = await recomputeVendors(trx, this.caps, [...affected], {
        nowIso: opts.nowIso,
        reason: opts.reason,
        method: this.method,
        rowVersion,
      });
      // Everything the write named (a renamed vendor, a new listing) is reloaded by readers too.
      for (const part of chunked([...affected], 5000)) {
        await trx.updateTable('vendors').set({ row_version: rowVersion }).where('slug', 'in', part).execute();
      }
      opts.onRecompute?.(recomputed);
      if (opts.log) await appendActions(trx, opts.log(recomputed), opts.nowIso);
      await bumpVersion(trx, this.caps, 'data', opts.nowIso);
      if (counts.account) await bumpVersion(trx, this.caps, 'keys', opts.nowIso);
      // Names a CoA document is matched against (core/coa/directory.ts) changed only with these.
      if (counts.lab || counts.peptide || counts.vendor)
        await bumpVersion(trx, this.caps, 'registry', opts.nowIso);
      return counts;
    });
    this.signal.mark();
    return result;
  }

  private async applyOne(
    trx: Transaction<Database>,
    b: ImportBatch,
    now: string,
    reason: string,
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
      b.lab.map((r) => ({
        slug: r.slug,
        name: r.name,
        trusted: flag(r.trusted),
        flagged: flag(r.flagged),
        verify_url: r.verifyUrl,
      })),
      ['slug'],
      { defaults: { trusted: 0, flagged: 0 } },
    );
    if (b.lab.length) {
      // Whether a lab is trusted weighs in the purity and transparency pillars of every vendor
      // that has batches tested there.
      for (const part of chunked(
        b.lab.map((l) => l.slug),
        5000,
      )) {
        for (const r of await trx
          .selectFrom('batches')
          .innerJoin('labs', 'labs.id', 'batches.lab_id')
          .innerJoin('vendors', 'vendors.id', 'batches.vendor_id')
          .select('vendors.slug as slug')
          .distinct()
          .where('labs.slug', 'in', part)
          .execute()) {
          affected.add(r.slug);
        }
      }
    }
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
      const accountIds = await accountIdMap(
        trx,
        b.claim.flatMap((c) => (c.account ? [c.account] : [])),
      );
      for (const c of b.claim) {
        await trx
          .updateTable('vendors')
          .set({ owner_account_id: c.account ? accountIds.get(c.account)! : null, updated_at: now })
          .where('slug', '=', c.vendorSlug)
          .execute();
        affected.add(c.vendorSlug);
      }
    }

    // Reference records are written; evidence is not yet: the core checks the rules and builds the
    // events from what the database holds now.
    const facts = await loadWriteFacts(trx, chunkFactKeys(b));
    checkChunk(b, facts);
    // A pending line does not undo a stored decision: what is written is what the core keeps.
    const batchLines = keepDecisions(b, facts).batch;
    const events = evidenceEvents(b, facts);

    const priceRows: Insertable<PricesTable>[] = b.price.map((r) => ({
      vendor_id: vendorIds.get(r.vendorSlug)!,
      peptide_id: peptideIds.get(r.peptideSlug)!,
      vial_mg: r.vialMg,
      source: r.source,
      total_usd: r.totalUsd,
      in_stock: r.inStock ? 1 : 0,
      updated_at: r.updatedAt,
    }));
    // The history is written from the rows as stored before this upsert, in the same transaction.
    await appendPriceChanges(trx, priceRows, now, reason);
    await upsertRows(trx, caps, 'prices', priceRows, ['vendor_id', 'peptide_id', 'vial_mg', 'source']);
    // A listing changes the vendor's catalog, which the coa pillar's coverage is a share of.
    for (const r of b.price) affected.add(r.vendorSlug);

    const batchRows: Partial<Insertable<BatchesTable>>[] = batchLines.map((r) => ({
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
    // Only batches approved before or after the write weigh in a score (a queued CoA upload does not).
    for (const slug of scoredBatchVendors(batchLines, facts)) affected.add(slug);

    // A review re-imported under another vendor leaves its old vendor: recompute that one too.
    for (const r of b.review) {
      const before = facts.reviews.get(r.id);
      if (before) affected.add(before.vendorSlug);
    }
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
    if (b.reply.length) {
      const accountIds = await accountIdMap(
        trx,
        b.reply.flatMap((r) => (r.account ? [r.account] : [])),
      );
      await upsertRows(
        trx,
        caps,
        'replies',
        b.reply.map((r) => ({
          review_id: r.reviewId,
          body: r.body,
          created_at: r.createdAt,
          account_id: r.account ? (accountIds.get(r.account) ?? null) : undefined,
        })),
        ['review_id'],
      );
    }
    await appendEvents(trx, events, now);

    // An override keeps who set it and when: a record with the same value and reason changes
    // nothing (re-imports are idempotent), any other value or reason is a new setting, now.
    const existingOverrides = new Map<string, { value: number; reason: string }>();
    const overrideVendors = [...new Set(b.override.map((o) => vendorIds.get(o.vendorSlug)!))];
    for (const part of chunked(overrideVendors, 5000)) {
      for (const r of await trx
        .selectFrom('overrides')
        .select(['vendor_id', 'field', 'value', 'reason'])
        .where('vendor_id', 'in', part)
        .execute()) {
        existingOverrides.set(`${r.vendor_id}/${r.field}`, { value: Number(r.value), reason: r.reason });
      }
    }
    const sets = b.override.filter((o) => {
      if (o.value === null) return false;
      const old = existingOverrides.get(`${vendorIds.get(o.vendorSlug)}/${o.field}`);
      return !old || old.value !== o.value || old.reason !== (o.reason ?? '');
    });
    await upsertRows(
      trx,
      caps,
      'overrides',
      sets.map((o) => ({
        vendor_id: vendorIds.get(o.vendorSlug)!,
        field: o.field,
        value: o.value!,
        reason: o.reason ?? '',
        set_by: o.setBy ?? 'import',
        created_at: now,
      })),
      ['vendor_id', 'field'],
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

async function accountIdMap(trx: Transaction<Database>, names: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunked([...new Set(names)], 5000)) {
    for (const a of await trx
      .selectFrom('accounts')
      .select(['id', 'name'])
      .where('name', 'in', part)
      .execute()) {
      out.set(a.name, a.id);
    }
  }
  return out;
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
    accounts: new Set([
      ...b.claim.flatMap((c) => (c.account ? [c.account] : [])),
      ...b.reply.flatMap((r) => (r.account ? [r.account] : [])),
    ]),
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

import { type Kysely, sql, type Transaction } from 'kysely';
import { NO_EVIDENCE, type VendorEvidenceSums } from '../../core/scoring/evidence.ts';
import type { EvidenceCutoffs, MethodParams } from '../../core/scoring/method.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** PostgreSQL returns bigint sums and counts as strings; both backends may give null for empty sums. */
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * The evidence sums of the given vendors (or of every vendor), in four grouped queries that
 * read each table once. Every filter is a comparison of ISO 8601 text, which sorts as time on
 * both backends (docs/decisions/0003-storage-types.md), so the same SQL serves both.
 */
export async function loadEvidence(
  db: Db,
  vendorIds: readonly number[] | 'all',
  cut: EvidenceCutoffs,
  m: MethodParams,
): Promise<Map<number, VendorEvidenceSums>> {
  const out = new Map<number, VendorEvidenceSums>();
  const ids = vendorIds === 'all' ? null : [...vendorIds];
  const at = (id: number): VendorEvidenceSums => {
    let e = out.get(id);
    if (!e) {
      e = { ...NO_EVIDENCE };
      out.set(id, e);
    }
    return e;
  };

  const vendors = await db
    .selectFrom('vendors')
    .select(['id', 'location', 'description', 'website', 'owner_account_id', 'verified_at'])
    .$if(ids !== null, (q) => q.where('id', 'in', ids!))
    .execute();
  for (const v of vendors) {
    const e = at(v.id);
    e.hasLocation = v.location.trim() !== '';
    e.hasDescription = v.description.trim() !== '';
    e.hasWebsite = v.website !== null && v.website !== '';
    e.claimed = v.owner_account_id !== null;
    e.verifiedAt = v.verified_at;
  }

  // One pass over the approved batches. A batch's weight in the purity mean depends on its lab.
  const uw = m.purity.untrustedWeight;
  const inWindow = sql`(b.tested_at >= ${cut.purityWindow} and b.purity is not null)`;
  const weight = sql`(case when l.trusted = 1 then 1.0 else ${uw} end)`;
  const batchRows = await db
    .selectFrom('batches as b')
    .leftJoin('labs as l', 'l.id', 'b.lab_id')
    .select([
      'b.vendor_id as vendor_id',
      sql<number>`count(*)`.as('n'),
      sql<string | null>`max(b.tested_at)`.as('newest'),
      sql<string | null>`min(b.tested_at)`.as('oldest'),
      sql<number>`sum(case when b.source_url is not null and b.source_url <> '' then 1 else 0 end)`.as(
        'urls',
      ),
      sql<number>`sum(case when l.trusted = 1 then 1 else 0 end)`.as('trusted'),
      sql<number>`sum(case when ${inWindow} then ${weight} else 0 end)`.as('pw'),
      sql<number>`sum(case when ${inWindow} then ${weight} * b.purity else 0 end)`.as('pws'),
      sql<number>`sum(case when ${inWindow} then ${weight} * b.purity * b.purity else 0 end)`.as('pwsq'),
      sql<number>`sum(b.purity)`.as('psum'),
      sql<number>`count(b.purity)`.as('pcount'),
    ])
    .where('b.status', '=', 'approved')
    .$if(ids !== null, (q) => q.where('b.vendor_id', 'in', ids!))
    .groupBy('b.vendor_id')
    .execute();
  for (const r of batchRows) {
    const e = at(r.vendor_id);
    e.approvedBatches = num(r.n);
    e.newestTestedAt = text(r.newest);
    e.oldestTestedAt = text(r.oldest);
    e.withSourceUrl = num(r.urls);
    e.withTrustedLab = num(r.trusted);
    e.purityWeight = num(r.pw);
    e.purityWeightedSum = num(r.pws);
    e.purityWeightedSquares = num(r.pwsq);
    e.approvedPuritySum = num(r.psum);
    e.approvedPurityCount = num(r.pcount);
  }

  // The catalog: what the vendor lists, plus what it has had approved tests of. A peptide is
  // covered when one of its approved batches is current (the batch lookup would say verified).
  const catalogRows = await db
    .selectFrom(
      db
        .selectFrom('prices')
        .select(['vendor_id', 'peptide_id'])
        .$if(ids !== null, (q) => q.where('vendor_id', 'in', ids!))
        .union(
          db
            .selectFrom('batches')
            .select(['vendor_id', 'peptide_id'])
            .where('status', '=', 'approved')
            .$if(ids !== null, (q) => q.where('vendor_id', 'in', ids!)),
        )
        .as('c'),
    )
    .select(['c.vendor_id', sql<number>`count(*)`.as('n')])
    .groupBy('c.vendor_id')
    .execute();
  for (const r of catalogRows) at(r.vendor_id).catalogSize = num(r.n);

  const currentRows = await db
    .selectFrom('batches')
    .select(['vendor_id', sql<number>`count(distinct peptide_id)`.as('n')])
    .where('status', '=', 'approved')
    .where('tested_at', '>', cut.current)
    .$if(ids !== null, (q) => q.where('vendor_id', 'in', ids!))
    .groupBy('vendor_id')
    .execute();
  for (const r of currentRows) at(r.vendor_id).currentPeptides = num(r.n);

  const s = m.sentiment;
  const age = sql`(case when created_at >= ${cut.reviewRecent} then 1.0 when created_at >= ${cut.reviewYear} then ${s.midWeight} else ${s.oldWeight} end)`;
  const reviewRows = await db
    .selectFrom('reviews')
    .select([
      'vendor_id',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(${age})`.as('w'),
      sql<number>`sum(${age} * rating)`.as('wr'),
      sql<string | null>`min(created_at)`.as('oldest'),
    ])
    .$if(ids !== null, (q) => q.where('vendor_id', 'in', ids!))
    .groupBy('vendor_id')
    .execute();
  for (const r of reviewRows) {
    const e = at(r.vendor_id);
    e.reviews = num(r.n);
    e.reviewWeight = num(r.w);
    e.reviewWeightedRatings = num(r.wr);
    e.oldestReviewAt = text(r.oldest);
  }
  return out;
}

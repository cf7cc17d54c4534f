import type { RankedVendorA, ScoredVendor } from '../../core/catalog/read-model.ts';
import type { Peptide } from '../../core/peptides/model.ts';
import { tierOf } from '../../core/scoring/composite.ts';
import type { SearchResult } from '../../core/search/search-catalog.ts';
import { isScored } from '../../core/vendors/model.ts';
import type { RecentCoa, VendorReport } from '../../core/vendors/vendor-report.ts';

/**
 * Variant A's shapes, field by field: snake_case, lists `{data,total[,page]}`, details at top level.
 * Every field the spec types is sent with that type or not at all (decision 0016): never null.
 */

/** Percentage text, one decimal with a trailing ".0" dropped: "99.1%", "99%". */
const purityText = (p: number): string => `${p.toFixed(1).replace(/\.0$/, '')}%`;

const vendorItem = (v: RankedVendorA) => ({
  slug: v.slug,
  name: v.name,
  score: v.score,
  purity: purityText(v.purity),
  verified: v.verified,
  tier: tierOf(v.score),
  location: v.location,
  pillars: v.pillars,
});

export const presentVendorList = (vendors: readonly RankedVendorA[], total: number, page: number): string =>
  JSON.stringify({ data: vendors.map(vendorItem), total, page });

/** `recent_coas` elements: a fixed key set; what a pending submission lacks is null (decision 0009). */
const recentCoa = (c: RecentCoa) =>
  c.state === 'pending'
    ? {
        batch_id: c.batchId,
        peptide: c.peptideName,
        purity: null,
        lab: null,
        tested_at: null,
        submitted_at: c.submittedAt,
        state: c.state,
      }
    : {
        batch_id: c.batchId,
        peptide: c.peptideName,
        purity: c.purity,
        lab: c.lab,
        tested_at: c.testedAt,
        submitted_at: c.submittedAt,
        state: c.state,
      };

/**
 * The vendor report. `score`, `tier` and `sentiment` are present exactly when the vendor is
 * scored; `verified_at` exactly when it is verified and the time of verification is on record.
 * Absent, not null: the spec types them as integer, string and timestamp (decision 0016).
 */
export function presentVendorDetail(r: VendorReport): string {
  const v = r.vendor;
  return JSON.stringify({
    slug: v.slug,
    name: v.name,
    ...(isScored(v) ? { score: v.score, tier: tierOf(v.score) } : {}),
    verified: v.verified,
    score_history: v.scoreHistory,
    coa_count: r.coaCount,
    ...(isScored(v) ? { sentiment: v.pillars.sentiment } : {}),
    peptide_catalog: r.peptideNames,
    recent_coas: r.recent.map(recentCoa),
    ...(v.verified && v.verifiedAt !== null ? { verified_at: v.verifiedAt } : {}),
  });
}

const peptideItem = (p: Peptide, vendorCount: number) => ({
  slug: p.slug,
  name: p.name,
  category: p.category,
  vendor_count: vendorCount,
  molecular_weight: p.molecularWeight,
});

export const presentPeptideList = (items: { peptide: Peptide; vendorCount: number }[]): string =>
  JSON.stringify({ data: items.map((i) => peptideItem(i.peptide, i.vendorCount)), total: items.length });

export const presentPeptideRanking = (slug: string, vendors: readonly ScoredVendor[]): string =>
  JSON.stringify({
    peptide: slug,
    vendors: vendors.map((v, i) => ({ slug: v.slug, score: v.score, rank: i + 1 })),
  });

export const presentSearch = (r: SearchResult, vendorCount: (slug: string) => number): string =>
  JSON.stringify({
    vendors: r.vendors.map(({ vendor: v }) => ({
      slug: v.slug,
      name: v.name,
      score: v.score,
      tier: tierOf(v.score),
      verified: v.verified,
    })),
    peptides: r.peptides.map(({ peptide: p }) => ({
      slug: p.slug,
      name: p.name,
      category: p.category,
      vendor_count: vendorCount(p.slug),
    })),
  });

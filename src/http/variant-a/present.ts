import { ageInDays } from '../../core/batches/batch-state.ts';
import type { ScoredVendor } from '../../core/catalog/read-model.ts';
import type { Peptide } from '../../core/peptides/model.ts';
import type { VendorEvidence } from '../../core/ports.ts';
import { tierOf } from '../../core/scoring/composite.ts';
import type { SearchResult } from '../../core/search/search-catalog.ts';
import type { VendorDetail } from '../../core/vendors/model.ts';

/** Variant A's shapes, field by field: snake_case, lists `{data,total[,page]}`, details at top level. */

const purityText = (p: number | null): string | null =>
  p === null ? null : `${p.toFixed(1).replace(/\.0$/, '')}%`;

const vendorItem = (v: ScoredVendor) => ({
  slug: v.slug,
  name: v.name,
  score: v.score,
  purity: purityText(v.purity),
  verified: v.verified,
  tier: tierOf(v.score),
  location: v.location,
  pillars: v.pillars,
});

export const presentVendorList = (vendors: readonly ScoredVendor[], total: number, page: number): string =>
  JSON.stringify({ data: vendors.map(vendorItem), total, page });

export function presentVendorDetail(
  v: VendorDetail,
  e: VendorEvidence,
  nowMs: number,
  staleAfterDays: number,
): string {
  return JSON.stringify({
    slug: v.slug,
    name: v.name,
    score: v.score,
    tier: v.score === null ? null : tierOf(v.score),
    verified: v.verified,
    score_history: v.scoreHistory,
    coa_count: e.coaCount,
    sentiment: v.pillars?.sentiment ?? null,
    peptide_catalog: e.peptideNames,
    recent_coas: e.recent.map((b) => ({
      batch_id: b.batchId,
      peptide: b.peptideName,
      purity: b.status === 'approved' ? b.purity : null,
      lab: b.status === 'approved' ? b.labName : null,
      tested_at: b.status === 'approved' ? b.testedAt : null,
      submitted_at: b.submittedAt,
      state:
        b.status === 'pending'
          ? 'pending'
          : b.testedAt && ageInDays(b.testedAt, nowMs) > staleAfterDays
            ? 'stale'
            : 'verified',
    })),
    verified_at: v.verifiedAt,
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

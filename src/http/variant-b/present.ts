import type { BatchVerification } from '../../core/batches/model.ts';
import type { ScoredVendor } from '../../core/catalog/read-model.ts';
import type { PriceHistoryResult, PriceStatsResult } from '../../core/prices/get-price-stats.ts';
import type { PriceTable } from '../../core/prices/get-price-table.ts';
import type { DailyPriceStats, PriceStatRow } from '../../core/prices/price-stats.ts';
import type { VendorPage } from '../../core/vendors/list-vendors.ts';
import { isScored, type VendorDetail } from '../../core/vendors/model.ts';

/**
 * Variant B's shapes, field by field (no recursive re-casing): camelCase where the spec says so,
 * every success wrapped as `{data, data_updated_at}`. Every field the spec types is sent with that
 * type or not at all (decision 0016): never null.
 */
const envelope = (data: unknown, dataUpdatedAt: string): string =>
  JSON.stringify({ data, data_updated_at: dataUpdatedAt });

const listItem = (v: ScoredVendor) => ({
  slug: v.slug,
  name: v.name,
  score: v.score,
  verified: v.verified,
  location: v.location,
  pillars: v.pillars,
});

export const presentVendorPage = (page: VendorPage, at: string): string =>
  envelope(
    { vendors: page.vendors.map(listItem), total: page.total, limit: page.limit, offset: page.offset },
    at,
  );

/**
 * `score` and `pillars` are present exactly when the vendor is scored; a vendor without them is
 * `pending: true` (too little evidence to score is pending too), which says why.
 */
export const presentVendorDetail = (v: VendorDetail, at: string): string =>
  envelope(
    {
      slug: v.slug,
      name: v.name,
      ...(isScored(v) ? { score: v.score } : {}),
      verified: v.verified,
      pending: v.pending,
      location: v.location,
      ...(isScored(v) ? { pillars: v.pillars } : {}),
      description: v.description,
      // Outbound links are a premium listing feature (DESIGN.md §4).
      ...(v.listingPlan === 'premium' && v.website ? { website: v.website } : {}),
      scoreHistory: v.scoreHistory,
    },
    at,
  );

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

export const presentPriceTable = (t: PriceTable, at: string): string =>
  envelope(
    {
      slug: t.peptide.slug,
      name: t.peptide.name,
      category: t.peptide.category,
      prices: t.prices.map((p) => ({
        vendorSlug: p.vendorSlug,
        vendorName: p.vendorName,
        totalUsd: p.totalUsd,
        vialMg: p.vialMg,
        perMg: round4(p.perMg),
        inStock: p.inStock,
        claimed: p.claimed,
        live: p.live,
        stale: p.stale,
        updatedAt: p.updatedAt,
      })),
    },
    at,
  );

export const presentBatch = (b: BatchVerification, at: string): string => envelope(b, at);

const round4OrNull = (n: number | null): number | null => (n === null ? null : round4(n));

const statRow = (r: PriceStatRow | null) => (r === null ? null : { ...r, perMg: round4(r.perMg) });

/** One day's price summary; also the MCP tool get_prices' `stats`. */
export const presentDailyStats = (d: DailyPriceStats) => ({
  date: d.date,
  cheapestInStock: statRow(d.cheapestInStock),
  cheapestVerified: statRow(d.cheapestVerified),
  median: round4OrNull(d.median),
  p25: round4OrNull(d.p25),
  p75: round4OrNull(d.p75),
  vendorCount: d.vendorCount,
  listedVendorCount: d.listedVendorCount,
});

export const presentPriceStats = (r: PriceStatsResult, at: string): string =>
  envelope(
    {
      slug: r.peptide.slug,
      name: r.peptide.name,
      category: r.peptide.category,
      stats: presentDailyStats(r.today),
    },
    at,
  );

export const presentPriceHistory = (r: PriceHistoryResult, at: string): string =>
  envelope(
    {
      slug: r.peptide.slug,
      name: r.peptide.name,
      category: r.peptide.category,
      days: r.days.length,
      points: r.days.map(presentDailyStats),
    },
    at,
  );

import { DAY_MS } from '../clock.ts';
import { perMgOf } from './bounds.ts';
import type { PriceSource } from './model.ts';

/** One kept change of a listing, as the statistics read it: the listing's values after the change. */
export interface PriceChange {
  vendorSlug: string;
  vendorName: string;
  /** The vendor's verified flag as it is now (the history keeps prices, not vendor facts). */
  verified: boolean;
  vialMg: number;
  source: PriceSource;
  totalUsd: number;
  inStock: boolean;
  /** ISO 8601: the listing's updatedAt after the change, when this price held from. */
  effectiveAt: string;
  /** Write order (the change's id): of two changes of one listing, the later write wins. */
  seq: number;
}

/** The row a statistic points at: the vendor and the listing. */
export interface PriceStatRow {
  vendorSlug: string;
  vendorName: string;
  perMg: number;
  totalUsd: number;
  vialMg: number;
}

/** One UTC day's summary of a peptide's prices, as listed at the end of that day. */
export interface DailyPriceStats {
  /** YYYY-MM-DD, a UTC day. */
  date: string;
  /** The lowest $/mg of any in-stock listing. */
  cheapestInStock: PriceStatRow | null;
  /** The lowest $/mg of an in-stock listing of a verified vendor. */
  cheapestVerified: PriceStatRow | null;
  /** Quartiles of each in-stock vendor's lowest $/mg (linear interpolation); null with no vendor in stock. */
  median: number | null;
  p25: number | null;
  p75: number | null;
  /** Vendors with at least one in-stock listing (the quartiles' population). */
  vendorCount: number;
  /** Vendors with any listing, in stock or not. */
  listedVendorCount: number;
}

/** Start (epoch ms) of the UTC day holding `ms`. */
export const utcDayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The p-quantile (0..1) of ascending values, linearly interpolated between closest ranks. */
export function quantile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

const cheaper = (a: PriceStatRow, b: PriceStatRow): boolean =>
  a.perMg !== b.perMg
    ? a.perMg < b.perMg
    : a.vendorSlug !== b.vendorSlug
      ? a.vendorSlug < b.vendorSlug
      : a.vialMg < b.vialMg;

/**
 * The summary of the listings standing at one moment: a live listing replaces the baseline one of
 * the same vendor and vial size, as in the price table (price-table.ts).
 */
export function summarize(date: string, listings: Iterable<PriceChange>): DailyPriceStats {
  const all = [...listings];
  const live = new Set(all.filter((l) => l.source === 'live').map((l) => `${l.vendorSlug}\u0000${l.vialMg}`));
  const listed = new Set<string>();
  const bestPerVendor = new Map<string, number>();
  let cheapestInStock: PriceStatRow | null = null;
  let cheapestVerified: PriceStatRow | null = null;
  for (const l of all) {
    if (l.source === 'baseline' && live.has(`${l.vendorSlug}\u0000${l.vialMg}`)) continue;
    const perMg = perMgOf(l.totalUsd, l.vialMg);
    // As in the price table: a row with no finite $/mg is no product.
    if (!Number.isFinite(perMg)) continue;
    listed.add(l.vendorSlug);
    if (!l.inStock) continue;
    const row: PriceStatRow = {
      vendorSlug: l.vendorSlug,
      vendorName: l.vendorName,
      perMg,
      totalUsd: l.totalUsd,
      vialMg: l.vialMg,
    };
    if (cheapestInStock === null || cheaper(row, cheapestInStock)) cheapestInStock = row;
    if (l.verified && (cheapestVerified === null || cheaper(row, cheapestVerified))) cheapestVerified = row;
    const best = bestPerVendor.get(l.vendorSlug);
    if (best === undefined || perMg < best) bestPerVendor.set(l.vendorSlug, perMg);
  }
  const perVendor = [...bestPerVendor.values()].sort((a, b) => a - b);
  return {
    date,
    cheapestInStock,
    cheapestVerified,
    median: quantile(perVendor, 0.5),
    p25: quantile(perVendor, 0.25),
    p75: quantile(perVendor, 0.75),
    vendorCount: perVendor.length,
    listedVendorCount: listed.size,
  };
}

/**
 * One summary per UTC day, `days` of them from the day holding `firstDayMs`, each of the listings
 * standing at the end of its day (changes effective before the next day's 00:00 UTC). A listing's
 * standing value is the latest-written change that is effective by then. Pure: the changes may come
 * in any order.
 */
export function dailyPriceStats(
  changes: readonly PriceChange[],
  firstDayMs: number,
  days: number,
): DailyPriceStats[] {
  const ordered = changes
    .map((c) => ({ c, at: Date.parse(c.effectiveAt) }))
    .sort((a, b) => a.at - b.at || a.c.seq - b.c.seq);
  const standing = new Map<string, PriceChange>();
  const out: DailyPriceStats[] = [];
  let next = 0;
  const start = utcDayStart(firstDayMs);
  for (let d = 0; d < days; d++) {
    const dayStart = start + d * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    while (next < ordered.length && ordered[next]!.at < dayEnd) {
      const { c } = ordered[next++]!;
      const key = `${c.vendorSlug}\u0000${c.vialMg}\u0000${c.source}`;
      const held = standing.get(key);
      if (held === undefined || c.seq > held.seq) standing.set(key, c);
    }
    out.push(summarize(new Date(dayStart).toISOString().slice(0, 10), standing.values()));
  }
  return out;
}

import { DAY_MS, HOUR_MS } from '../clock.ts';
import { perMgOf } from './bounds.ts';
import type { PriceRow, StoredPrice } from './model.ts';

export interface StalenessRules {
  /** A live row not refreshed for this long is stale. Default 72 h. */
  liveStaleMs: number;
  /** A baseline row older than this is stale. Default 90 days. */
  baselineStaleMs: number;
}

export const DEFAULT_STALENESS: StalenessRules = { liveStaleMs: 72 * HOUR_MS, baselineStaleMs: 90 * DAY_MS };

/**
 * Merges live listings over the static baseline: a live row replaces the baseline row of the same
 * vendor and vial size. Sorted in-stock first, then claimed vendors, then ascending exact price
 * per mg (ties: vendor slug, then vial size). Claimed vendors sort first, so the first row is not
 * necessarily the cheapest in stock: the price statistics name that one (price-stats.ts).
 */
export function mergePriceTable(
  rows: readonly StoredPrice[],
  nowMs: number,
  rules = DEFAULT_STALENESS,
): PriceRow[] {
  const live = new Set(
    rows.filter((r) => r.source === 'live').map((r) => `${r.vendorSlug}\u0000${r.vialMg}`),
  );
  const merged: PriceRow[] = [];
  for (const r of rows) {
    if (r.source === 'baseline' && live.has(`${r.vendorSlug}\u0000${r.vialMg}`)) continue;
    const perMg = perMgOf(r.totalUsd, r.vialMg);
    // A row stored before the bounds (core/prices/bounds.ts), with a vial so small that perMg is
    // not finite, is no product: it is left out rather than served as perMg null.
    if (!Number.isFinite(perMg)) continue;
    const isLive = r.source === 'live';
    merged.push({
      vendorSlug: r.vendorSlug,
      vendorName: r.vendorName,
      totalUsd: r.totalUsd,
      vialMg: r.vialMg,
      perMg,
      inStock: r.inStock,
      claimed: r.claimed,
      live: isLive,
      stale: nowMs >= staleFrom(r.updatedAt, isLive, rules),
      updatedAt: r.updatedAt,
    });
  }
  return merged.sort(comparePriceRows);
}

/**
 * The first instant (epoch ms) at which a row of age `updatedAt` is stale: older than its
 * threshold, strictly (a row exactly 72 h old is still fresh).
 */
const staleFrom = (updatedAt: string, live: boolean, rules: StalenessRules): number =>
  Date.parse(updatedAt) + (live ? rules.liveStaleMs : rules.baselineStaleMs) + 1;

/**
 * Until when a merged table stays right without any data change: the moment its next fresh row
 * turns stale (a stale row never turns fresh by time alone). Infinity when every row is stale.
 */
export function priceTableValidUntil(rows: readonly PriceRow[], rules = DEFAULT_STALENESS): number {
  let until = Number.POSITIVE_INFINITY;
  for (const p of rows) if (!p.stale) until = Math.min(until, staleFrom(p.updatedAt, p.live, rules));
  return until;
}

export function comparePriceRows(a: PriceRow, b: PriceRow): number {
  if (a.inStock !== b.inStock) return a.inStock ? -1 : 1;
  if (a.claimed !== b.claimed) return a.claimed ? -1 : 1;
  if (a.perMg !== b.perMg) return a.perMg - b.perMg;
  if (a.vendorSlug !== b.vendorSlug) return a.vendorSlug < b.vendorSlug ? -1 : 1;
  return a.vialMg - b.vialMg;
}

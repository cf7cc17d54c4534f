import type { CatalogSnapshot, ScoredVendor } from '../catalog/read-model.ts';

/** Page-size bounds shared by both variants (DESIGN.md §4). */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;

export interface VendorPage {
  vendors: readonly ScoredVendor[];
  /** Size of the whole ranking, not of the page. */
  total: number;
  limit: number;
  offset: number;
}

/** Variant B's semantics: out-of-range limits are clamped (and the applied value echoed). */
export const clampLimit = (limit: number): number => Math.min(MAX_PAGE_SIZE, Math.max(1, limit));

/** A window onto a ranking. `scope`: every scored vendor, or only verified ones (Variant A). */
export function listVendors(
  snap: CatalogSnapshot,
  scope: 'scored' | 'verified',
  limit: number,
  offset: number,
): VendorPage {
  const ranking = scope === 'verified' ? snap.rankedVerified : snap.ranked;
  return { vendors: ranking.slice(offset, offset + limit), total: ranking.length, limit, offset };
}

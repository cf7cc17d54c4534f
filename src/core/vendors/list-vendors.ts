import type { CatalogSnapshot, RankedVendorA, ScoredVendor } from '../catalog/read-model.ts';

/** Page-size bounds shared by both variants (DESIGN.md §4). */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;

export interface VendorPage<V extends ScoredVendor = ScoredVendor> {
  vendors: readonly V[];
  /** Size of the whole ranking, not of the page. */
  total: number;
  limit: number;
  offset: number;
}

/** Variant B's semantics: out-of-range limits are clamped (and the applied value echoed). */
export const clampLimit = (limit: number): number => Math.min(MAX_PAGE_SIZE, Math.max(1, limit));

/**
 * A window onto a ranking. `scope`: every scored vendor (Variant B), or Variant A's public ranking
 * (`verified`: verified, scored and with a tested purity on record; decision 0016).
 */
export function listVendors(
  snap: CatalogSnapshot,
  scope: 'verified',
  limit: number,
  offset: number,
): VendorPage<RankedVendorA>;
export function listVendors(
  snap: CatalogSnapshot,
  scope: 'scored',
  limit: number,
  offset: number,
): VendorPage;
export function listVendors(
  snap: CatalogSnapshot,
  scope: 'scored' | 'verified',
  limit: number,
  offset: number,
): VendorPage {
  const ranking = scope === 'verified' ? snap.rankedVerified : snap.ranked;
  return { vendors: ranking.slice(offset, offset + limit), total: ranking.length, limit, offset };
}

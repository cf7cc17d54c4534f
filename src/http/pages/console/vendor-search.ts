import type { CatalogSnapshot } from '../../../core/catalog/read-model.ts';
import type { Vendor } from '../../../core/vendors/model.ts';

/** At most this many characters of a query are matched (as Variant A's search, 200). */
export const QUERY_MAX = 200;

export interface VendorMatches {
  vendors: Vendor[];
  /** How many vendors match in all. */
  total: number;
}

/**
 * The console's vendor finder: every vendor of the read model (scored or not: an operator looks
 * for unscored and pending vendors too, which the public search leaves out), those whose slug or
 * name holds the query, ignoring case. Scored vendors first in ranking order, then the rest by
 * name. Reads the snapshot the API serves; holds nothing but the page it returns.
 */
export function findVendors(snap: CatalogSnapshot, q: string, limit: number, offset: number): VendorMatches {
  const needle = q.trim().toLowerCase();
  const matches = (v: Vendor) =>
    needle === '' || v.slug.includes(needle) || v.name.toLowerCase().includes(needle);
  const scored = snap.ranked.filter(matches);
  const ranked = new Set(snap.ranked.map((v) => v.id));
  const unscored = [...snap.vendors.values()]
    .filter((v) => !ranked.has(v.id) && matches(v))
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.slug.localeCompare(b.slug));
  const all = [...scored, ...unscored];
  return { vendors: all.slice(offset, offset + limit), total: all.length };
}

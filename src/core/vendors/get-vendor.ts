import { notFound } from '../errors.ts';
import { isSlug } from '../import/records.ts';
import type { CatalogStore } from '../ports.ts';
import type { VendorDetail } from './model.ts';

/** Default length of `scoreHistory` / `score_history` (newest N, oldest first). */
export const DEFAULT_HISTORY_LENGTH = 30;

export async function getVendor(
  store: CatalogStore,
  slug: string,
  historyLength: number,
): Promise<VendorDetail> {
  const v = isSlug(slug) ? await store.getVendorDetail(slug, historyLength) : null;
  if (!v) throw notFound('Vendor', slug);
  return v;
}

import { queryKey } from '../core/search/normalize.ts';
import { clampLimit } from '../core/vendors/list-vendors.ts';
import { cachedRead } from './cached-read.ts';
import { CATALOG_KEY_PREFIX } from './response-cache.ts';

/**
 * Response-cache keys, one function per route, from the route's parsed and validated parameters.
 * The routes and the fast path (fast-path.ts) both use these, so they can never disagree about
 * which body answers which request.
 *
 * `C` marks a body rendered from the catalog snapshot alone (its rankings, vendors, peptides and
 * the snapshot's own `dataUpdatedAt`; no store read, no clock): it stays valid while the snapshot's
 * content does, across writes that change nothing the catalog holds (response-cache.ts). A route
 * whose body reads anything else (batches, prices, reviews, the data state) must not use it.
 */
const C = CATALOG_KEY_PREFIX;
export const cacheKeys = {
  aVendors: (page: number, perPage: number) => `${C}a:vendors:${page}:${perPage}`,
  aVendor: (slug: string) => `a:vendor:${slug}`,
  aPeptides: (category: string | undefined) => `${C}a:peptides:${category ?? ''}`,
  aRanking: (slug: string) => `${C}a:ranking:${slug}`,
  /** Queries that fold to the same words share one answer. */
  aSearch: (limit: number, q: string) => `${C}a:search:${limit}:${queryKey(q)}`,
  bVendors: (limit: number, offset: number) => `${C}b:vendors:${limit}:${offset}`,
  bVendor: (slug: string) => `b:vendor:${slug}`,
  bPrices: (slug: string) => `b:prices:${slug}`,
  bPriceStats: (slug: string) => `b:price-stats:${slug}`,
  bPriceHistory: (slug: string, days: number) => `b:price-history:${slug}:${days}`,
  /** JSON keeps the two parts apart: a batch number may contain any separator we could pick. */
  bBatch: (vendor: string | undefined, batchId: string) =>
    `b:batch:${JSON.stringify([vendor ?? null, batchId])}`,
} as const;

/** A category as the peptide library filters by it: trimmed, lower case. */
export const normalizeCategory = (category: string | undefined): string | undefined =>
  category?.trim().toLowerCase();

/**
 * The cached reads of both variants, declared on their routes (`config.cachedRead`): each maps a
 * request's validated parameters to its cache key. The route handlers and the fast path call these.
 */
export const cachedReads = {
  aVendors: cachedRead((_p: unknown, q: { page: number; per_page: number }) =>
    cacheKeys.aVendors(q.page, q.per_page),
  ),
  aVendor: cachedRead((p: { slug: string }) => cacheKeys.aVendor(p.slug)),
  aPeptides: cachedRead((_p: unknown, q: { category?: string }) =>
    cacheKeys.aPeptides(normalizeCategory(q.category)),
  ),
  aRanking: cachedRead((p: { slug: string }) => cacheKeys.aRanking(p.slug)),
  /** A query of no words has no cached answer (it finds nothing, and every such query would share a key). */
  aSearch: cachedRead((_p: unknown, q: { q: string; limit: number }) =>
    queryKey(q.q) === '' ? null : cacheKeys.aSearch(q.limit, q.q),
  ),
  bVendors: cachedRead((_p: unknown, q: { limit: number; offset: number }) =>
    cacheKeys.bVendors(clampLimit(q.limit), q.offset),
  ),
  bVendor: cachedRead((p: { slug: string }) => cacheKeys.bVendor(p.slug)),
  bPrices: cachedRead((p: { slug: string }) => cacheKeys.bPrices(p.slug)),
  bPriceStats: cachedRead((p: { slug: string }) => cacheKeys.bPriceStats(p.slug)),
  bPriceHistory: cachedRead((p: { slug: string }, q: { days: number }) =>
    cacheKeys.bPriceHistory(p.slug, q.days),
  ),
  bBatch: cachedRead((p: { batchId: string }, q: { vendor?: string }) =>
    cacheKeys.bBatch(q.vendor, p.batchId),
  ),
} as const;

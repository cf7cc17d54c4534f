import { queryKey } from '../core/search/normalize.ts';

/**
 * Response-cache keys, one function per route, from the route's parsed and validated parameters.
 * The routes and the fast path (fast-path.ts) both use these, so they can never disagree about
 * which body answers which request.
 */
export const cacheKeys = {
  aVendors: (page: number, perPage: number) => `a:vendors:${page}:${perPage}`,
  aVendor: (slug: string) => `a:vendor:${slug}`,
  aPeptides: (category: string | undefined) => `a:peptides:${category ?? ''}`,
  aRanking: (slug: string) => `a:ranking:${slug}`,
  /** Queries that fold to the same words share one answer. */
  aSearch: (limit: number, q: string) => `a:search:${limit}:${queryKey(q)}`,
  bVendors: (limit: number, offset: number) => `b:vendors:${limit}:${offset}`,
  bVendor: (slug: string) => `b:vendor:${slug}`,
  bPrices: (slug: string) => `b:prices:${slug}`,
  /** JSON keeps the two parts apart: a batch number may contain any separator we could pick. */
  bBatch: (vendor: string | undefined, batchId: string) =>
    `b:batch:${JSON.stringify([vendor ?? null, batchId])}`,
} as const;

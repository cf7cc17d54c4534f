/**
 * A GET route's declaration that its answers are cached bodies: the response-cache key of a request,
 * from its validated path parameters and query (null: this request is not cached). The route handler
 * and the fast path (fast-path.ts) call the same function, so they can never disagree about which
 * body answers which request. Declared as `config.cachedRead`, next to `config.access`.
 */
export interface CachedRead {
  key(params: never, query: never): string | null;
}

/** Declares a cached read; the types of `params` and `query` are the route's validated ones. */
export function cachedRead<P, Q, K extends string | null>(
  key: (params: P, query: Q) => K,
): { key: (params: P, query: Q) => K } {
  return { key };
}

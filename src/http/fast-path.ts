import type { IncomingMessage, ServerResponse } from 'node:http';
import { planAllows } from '../core/accounts/plans.ts';
import type { Principal } from '../core/keys/model.ts';
import type { RateLimitPolicy, RateLimitScope, RateLimitSlot } from '../core/ratelimit/model.ts';
import { MAX_QUERY_LENGTH } from '../core/search/search-catalog.ts';
import { clampLimit } from '../core/vendors/list-vendors.ts';
import { cacheKeys } from './cache-keys.ts';
import { nextRequestId } from './request-id.ts';
import type { ResponseCache } from './response-cache.ts';
import type { AppServices } from './services.ts';

/** A route the fast path may answer: its scope and how a URL maps to its cache key. */
export interface FastRoute {
  scope: RateLimitScope;
  policyFor(principal: Principal): RateLimitPolicy;
  /** The cache key for this path and query, or null to leave the request to Fastify. */
  key(path: string, query: URLSearchParams): string | null;
}

const DIGITS = /^[0-9]{1,9}$/;
/** URLs whose route and cache key are remembered (decision 0011). */
const RESOLVED_MAX = 20_000;
/** Keys remembered by their Authorization header; only valid keys get here (as in the authenticator). */
const KEYS_MAX = 100_000;

/**
 * What the fast path needs about a valid key (whose plan allows reads) in one variant, looked up on
 * the key's first request there. One object per key and variant, so a request follows one pointer
 * for all of it (decision 0011).
 */
interface Lane {
  principal: Principal;
  policy: RateLimitPolicy;
  /** The policy's limit as header text. */
  limitText: string;
  slot: RateLimitSlot;
  /**
   * The last `x-ratelimit-reset` sent, in seconds and as text: it changes once an hour (A) or when
   * the key's oldest hit leaves the window (B), so the text is usually reused.
   */
  resetSec: number;
  resetText: string;
}

/** A whole-number parameter written plainly, or its default; null for anything else (Fastify decides). */
function intParam(query: URLSearchParams, name: string, fallback: number): number | null {
  const all = query.getAll(name);
  if (all.length === 0) return fallback;
  if (all.length > 1 || !DIGITS.test(all[0]!)) return null;
  return Number(all[0]);
}

const only = (query: URLSearchParams, allowed: readonly string[]): boolean => {
  for (const name of query.keys()) if (!allowed.includes(name)) return false;
  return true;
};

/** One path segment after a prefix, decoded, or null. */
function segment(path: string, prefix: string, suffix = ''): string | null {
  if (!path.startsWith(prefix) || !path.endsWith(suffix)) return null;
  const raw = path.slice(prefix.length, path.length - suffix.length);
  if (raw === '' || raw.includes('/')) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The cached read routes of both variants, keyed exactly as the routes key them (cache-keys.ts). */
export function fastRoutes(a: Omit<FastRoute, 'key'>, b: Omit<FastRoute, 'key'>): FastRoute[] {
  return [
    {
      ...b,
      key: (path, q) => {
        if (path !== '/api/v1/vendors' || !only(q, ['limit', 'offset'])) return null;
        const limit = intParam(q, 'limit', 50);
        const offset = intParam(q, 'offset', 0);
        return limit === null || offset === null ? null : cacheKeys.bVendors(clampLimit(limit), offset);
      },
    },
    {
      ...b,
      key: (path, q) => {
        const id = q.size === 0 ? segment(path, '/api/v1/batches/') : null;
        return id === null ? null : cacheKeys.bBatch(undefined, id);
      },
    },
    {
      ...b,
      key: (path, q) => {
        const slug = q.size === 0 ? segment(path, '/api/v1/vendors/') : null;
        return slug === null ? null : cacheKeys.bVendor(slug);
      },
    },
    {
      ...b,
      key: (path, q) => {
        const slug = q.size === 0 ? segment(path, '/api/v1/peptides/', '/prices') : null;
        return slug === null ? null : cacheKeys.bPrices(slug);
      },
    },
    {
      ...a,
      key: (path, q) => {
        if (path !== '/v1/vendors' || !only(q, ['page', 'per_page'])) return null;
        const page = intParam(q, 'page', 1);
        const perPage = intParam(q, 'per_page', 50);
        if (page === null || perPage === null || page < 1 || perPage < 1 || perPage > 200) return null;
        return cacheKeys.aVendors(page, perPage);
      },
    },
    {
      ...a,
      key: (path, q) => {
        const slug = q.size === 0 ? segment(path, '/v1/vendors/') : null;
        return slug === null ? null : cacheKeys.aVendor(slug);
      },
    },
    {
      ...a,
      key: (path, q) => {
        const slug = q.size === 0 ? segment(path, '/v1/peptides/', '/vendors') : null;
        return slug === null ? null : cacheKeys.aRanking(slug);
      },
    },
    {
      ...a,
      key: (path, q) => {
        if (path !== '/v1/search' || !only(q, ['q', 'limit'])) return null;
        const all = q.getAll('q');
        const limit = intParam(q, 'limit', 10);
        if (all.length !== 1 || limit === null || limit < 1 || limit > 50) return null;
        const text = all[0]!;
        // Exactly the requests the route itself would accept; anything else gets its error there.
        if (text.trim() === '' || [...text].length > MAX_QUERY_LENGTH) return null;
        return cacheKeys.aSearch(limit, text);
      },
    },
  ];
}

/**
 * Answers the commonest request there is, a GET of a cached read by a known key, without the
 * framework: the same checks as the guard (fresh versions, the key, the plan, the rate limit), the
 * same cached bytes and the same headers, written in one writeHead. Anything else (a cache miss, an
 * unknown key, a conditional request, an over-limit key, an odd parameter, a data change to load)
 * returns false and goes to Fastify, which answers it the usual way. Decision 0011.
 */
export function createFastPath(services: AppServices, cache: ResponseCache, routes: FastRoute[]) {
  const { freshness, auth, limiter, clock } = services;
  let open = true;
  /**
   * URL → route and cache key. Both depend on the URL alone (the cache entry itself is checked
   * against the data version), so a repeated URL skips parsing its query. Bounded: search URLs
   * are as varied as their users.
   */
  const resolved = new Map<string, { route: FastRoute; key: string } | null>();
  const resolve = (url: string): { route: FastRoute; key: string } | null => {
    const qAt = url.indexOf('?');
    const path = qAt < 0 ? url : url.slice(0, qAt);
    const query = new URLSearchParams(qAt < 0 ? '' : url.slice(qAt + 1));
    for (const route of routes) {
      const key = route.key(path, query);
      if (key !== null) return { route, key };
    }
    return null;
  };
  /**
   * Per variant, Authorization header → the key's lane (principal, policy, rate-limit slot): one
   * lookup per request for everything about the key, instead of one each for the key, its policy
   * and its counter (on thousands of active keys those lookups mostly miss the CPU cache). Filled
   * from the authenticator's cache, and cleared with it whenever the keys change (invalidateKeys),
   * so a revocation takes effect on the very next request here too.
   */
  const lanes: Record<RateLimitScope, Map<string, Lane>> = { a: new Map(), b: new Map() };
  const lane = (
    header: string | undefined,
    route: FastRoute,
    slotSync: NonNullable<typeof limiter.slotSync>,
  ): Lane | null => {
    if (header === undefined) return null;
    const scope = route.scope;
    const known = lanes[scope];
    const seen = known.get(header);
    if (seen !== undefined) {
      if (seen.slot.detached) seen.slot = slotSync.call(limiter, seen.principal.keyId, scope);
      return seen;
    }
    const result = auth.authenticateCached(header);
    if (!result?.ok || !planAllows(result.principal.plan, 'read')) return null;
    const { principal } = result;
    const policy = route.policyFor(principal);
    const slot = slotSync.call(limiter, principal.keyId, scope);
    const entry: Lane = {
      principal,
      policy,
      limitText: String(policy.limit),
      slot,
      resetSec: -1,
      resetText: '',
    };
    if (known.size >= KEYS_MAX) known.clear();
    known.set(header, entry);
    return entry;
  };
  /** Requests answered here (observable for tests and diagnostics). */
  const stats = { served: 0 };
  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!open || req.method !== 'GET' || req.headers['if-none-match'] !== undefined) return false;
    const { slotSync, consumeSlotSync } = limiter;
    if (!slotSync || !consumeSlotSync) return false;
    if (freshness.check()) return false;
    const url = req.url ?? '';
    let target = resolved.get(url);
    if (target === undefined) {
      target = resolve(url);
      if (resolved.size >= RESOLVED_MAX) resolved.clear();
      resolved.set(url, target);
    }
    if (target === null) return false;
    const { route, key } = target;
    const cached = cache.get(key, freshness.state.dataVersion, clock.now());
    if (!cached) return false;
    const l = lane(req.headers.authorization, route, slotSync);
    if (l === null) return false;
    const admitted = consumeSlotSync.call(limiter, l.slot, l.policy);
    // Denied requests are not counted, so the framework can deny it again, with the error body.
    if (admitted === null) return false;
    const resetSec = Math.ceil(admitted.resetAtMs / 1000);
    if (resetSec !== l.resetSec) {
      l.resetSec = resetSec;
      l.resetText = String(resetSec);
    }
    res.writeHead(200, [
      'x-request-id',
      nextRequestId(),
      'x-ratelimit-limit',
      l.limitText,
      'x-ratelimit-remaining',
      String(admitted.remaining),
      'x-ratelimit-reset',
      l.resetText,
      'etag',
      cached.etag,
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      cached.lengthText,
    ]);
    res.end(cached.body);
    stats.served++;
    return true;
  };
  return {
    handle,
    stats,
    /** Forget every key (the keys changed: a revocation, a new plan). */
    invalidateKeys(): void {
      lanes.a.clear();
      lanes.b.clear();
    },
    /** Stop answering (the server is closing: Fastify answers 503 from here on). */
    close(): void {
      open = false;
    },
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Access } from '../core/accounts/plans.ts';
import type { Freshness } from '../core/catalog/freshness.ts';
import type { Clock } from '../core/clock.ts';
import type { RateLimitScope } from '../core/ratelimit/model.ts';
import type { AdmissionControl, Admitted } from './admission.ts';
import type { CachedRead } from './cached-read.ts';
import { compileParameters, type ParameterParser } from './fast-parameters.ts';
import type { RouteStats, RouteStatsTable } from './metrics/route-stats.ts';
import { requestIdOf } from './request-id.ts';
import type { CachedResponse, ResponseCache } from './response-cache.ts';

/** What a cached-read route declares (Fastify's route options, read once when it is registered). */
export interface FastRouteDeclaration {
  /** The full path pattern, prefix included, e.g. `/api/v1/batches/:batchId`. */
  url: string;
  scope: RateLimitScope;
  access: Access;
  /** The route's own TypeBox schemas: the fast path accepts exactly what they accept, or declines. */
  params?: unknown;
  querystring?: unknown;
  cachedRead: CachedRead;
}

interface FastRoute {
  scope: RateLimitScope;
  access: Access;
  parse: ParameterParser;
  cachedRead: CachedRead;
  /** The route's request counters (metrics/route-stats.ts), resolved once at declaration. */
  stats: RouteStats;
}

interface Target {
  route: FastRoute;
  key: string;
}

/**
 * URLs whose route and cache key are remembered, bounded in bytes as well as entries: only URLs of
 * admitted requests get here (decision 0018), and a URL is at most a request line long.
 */
const RESOLVED_MAX = 20_000;
const RESOLVED_MAX_BYTES = 4 * 1024 * 1024;

export interface FastPathDeps {
  freshness: Freshness;
  clock: Clock;
  admission: AdmissionControl;
  cache: ResponseCache;
  /** Where the routes' request counters are (the same ones Fastify's answers count into). */
  routeStats: RouteStatsTable;
}

/**
 * Answers the commonest request there is, a GET of a cached read by a known key, without the
 * framework. It decides nothing of its own: the route (pattern, parameter bounds, access, cache
 * key) is what the route declared, and admission is the same AdmissionControl the guard calls.
 * Anything it cannot answer from memory (a cache miss, a key not yet looked up, a refusal, a
 * conditional request, an odd parameter, a data change to load) returns false and goes to Fastify,
 * which answers it the usual way; nothing is counted or remembered then. Decisions 0011 and 0018.
 */
export function createFastPath(deps: FastPathDeps) {
  const { freshness, clock, admission, cache, routeStats } = deps;
  const routes: FastRoute[] = [];
  let open = true;
  const resolved = new Map<string, Target>();
  let resolvedBytes = 0;

  const resolve = (url: string): Target | null => {
    const qAt = url.indexOf('?');
    const path = qAt < 0 ? url : url.slice(0, qAt);
    const query = qAt < 0 ? '' : url.slice(qAt + 1);
    for (const route of routes) {
      const parsed = route.parse(path, query);
      if (parsed === null) continue;
      const key = route.cachedRead.key(parsed.params as never, parsed.query as never);
      return key === null ? null : { route, key };
    }
    return null;
  };
  const remember = (url: string, target: Target): void => {
    if (resolved.size >= RESOLVED_MAX || resolvedBytes + url.length > RESOLVED_MAX_BYTES) {
      resolved.clear();
      resolvedBytes = 0;
    }
    resolved.set(url, target);
    resolvedBytes += url.length;
  };

  /** Requests answered here (observable for tests and diagnostics). */
  const stats = { served: 0 };
  /**
   * Answers the request and returns true, or returns false (nothing counted, nothing remembered):
   * the caller then hands it to Fastify. `toFramework` is that handler, for requests this path
   * takes on and then hands over (a refusal by a limiter in Redis, decided after the return).
   */
  const handle = (
    req: IncomingMessage,
    res: ServerResponse,
    toFramework?: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean => {
    if (!open || req.method !== 'GET' || req.headers['if-none-match'] !== undefined) return false;
    const startMs = performance.now();
    if (freshness.check()) return false;
    const url = req.url ?? '';
    let target = resolved.get(url);
    const known = target !== undefined;
    if (!known) {
      target = resolve(url) ?? undefined;
      if (target === undefined) return false;
    }
    const { route, key } = target!;
    // Not counted as a lookup here: a miss goes on to the route, which counts it; a hit is counted below.
    const cached = cache.peek(key, freshness.state.dataVersion, clock.now());
    if (!cached) return false;
    const decided = admission.admitKnown(req.headers.authorization, route.scope, route.access, 'try');
    // Not decidable from memory (a key not yet looked up): nothing was counted; Fastify answers.
    if (decided === undefined) return false;
    if (decided instanceof Promise) {
      // The limits are in Redis (decision 0022). With nowhere to hand a refusal, decline before
      // anything is counted; else the request is this path's from here: answered with the body
      // found above (current when the request came) once admitted, or handed to Fastify, which
      // decides again and answers, when refused or when the limiter failed (a refusal counted nothing).
      if (toFramework === undefined) return false;
      decided.then(
        (admitted) => {
          if (!admitted.ok) return toFramework(req, res);
          if (!known) remember(url, target!);
          answer(req, res, admitted, cached, route, startMs);
        },
        () => toFramework(req, res),
      );
      return true;
    }
    // Refused: nothing was counted, so Fastify decides again and answers.
    if (!decided.ok) return false;
    if (!known) remember(url, target!);
    answer(req, res, decided, cached, route, startMs);
    return true;
  };
  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    admitted: Admitted,
    cached: CachedResponse,
    route: FastRoute,
    startMs: number,
  ): void => {
    res.writeHead(200, [
      'x-request-id',
      requestIdOf(req),
      'x-ratelimit-limit',
      admitted.limitText,
      'x-ratelimit-remaining',
      String(admitted.remaining),
      'x-ratelimit-reset',
      admitted.resetText,
      'etag',
      cached.etag,
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      cached.lengthText,
    ]);
    res.end(cached.body);
    stats.served++;
    // Counted only once answered (a declined request is counted by Fastify): plain increments
    // into the route's pre-resolved counters, no label lookup, no allocation.
    cache.hits++;
    route.stats.record(200, performance.now() - startMs);
  };
  return {
    handle,
    stats,
    /** Takes a cached-read route as declared to Fastify (called from the variants' onRoute hook). */
    declare(route: FastRouteDeclaration): void {
      routes.push({
        scope: route.scope,
        access: route.access,
        parse: compileParameters(route.url, route.params, route.querystring),
        cachedRead: route.cachedRead,
        stats: routeStats.forRoute('GET', route.url),
      });
      resolved.clear();
      resolvedBytes = 0;
    },
    /** Stop answering (the server is closing: Fastify answers 503 from here on). */
    close(): void {
      open = false;
    },
  };
}

export type FastPath = ReturnType<typeof createFastPath>;

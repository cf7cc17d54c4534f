/**
 * Requests and their latency per route, kept as plain numbers so that counting costs no allocation
 * and no label lookup on the request path: each route's RouteStats is resolved once (when the route
 * is registered, or by the fast path when it is declared) and a request only increments array
 * slots. prom-client reads them at scrape time (service-metrics.ts).
 *
 * Labels are bounded by construction: `route` is a route's template (`/api/v1/vendors/:slug`),
 * never a raw URL, and every request that matches no route shares `route="unmatched"` per variant.
 */

/** Upper bounds of the latency buckets, in seconds: few, so a scrape stays small. */
export const LATENCY_BUCKETS_S: readonly number[] = [0.001, 0.005, 0.025, 0.1, 0.5, 2.5];
const BUCKETS_MS = LATENCY_BUCKETS_S.map((s) => s * 1000);
const BUCKET_COUNT = BUCKETS_MS.length;

/** Statuses 100–599, one slot each (index = status - 100). */
const STATUS_MIN = 100;
const STATUS_SLOTS = 500;

/** The `variant` label: which surface a path belongs to (a fixed set). */
export type VariantLabel = 'a' | 'b' | 'admin' | 'other';

/** The label every request that matched no route gets as its `route`. */
export const UNMATCHED_ROUTE = 'unmatched';

export const variantOf = (path: string): VariantLabel => {
  if (path.startsWith('/api/v1/') || path === '/api/v1') return 'b';
  // /mcp is Variant A spoken as MCP: its keys, plans and quota (docs/mcp.md).
  if (path.startsWith('/v1/') || path === '/v1' || path === '/mcp') return 'a';
  if (path.startsWith('/admin/v1/') || path === '/admin/v1') return 'admin';
  return 'other';
};

export class RouteStats {
  /** Requests per status (index = status - 100); allocated on the first request of the route. */
  counts: Float64Array | null = null;
  /** Requests per latency bucket (the last one is +Inf), not cumulative. */
  readonly buckets = new Float64Array(BUCKET_COUNT + 1);
  /** Sum of latencies, seconds. */
  sumS = 0;
  requests = 0;

  constructor(
    readonly method: string,
    readonly route: string,
    readonly variant: VariantLabel,
  ) {}

  /** One answered request: its status and how long the server took, in milliseconds. */
  record(status: number, ms: number): void {
    const counts = this.counts ?? this.allocate();
    const slot = status - STATUS_MIN;
    // Node never sends a status outside 100–599; anything else would be a bug, not a label.
    if (slot >= 0 && slot < STATUS_SLOTS) counts[slot]! += 1;
    let b = 0;
    while (b < BUCKET_COUNT && ms > BUCKETS_MS[b]!) b++;
    this.buckets[b]! += 1;
    this.sumS += ms / 1000;
    this.requests += 1;
  }

  private allocate(): Float64Array {
    this.counts = new Float64Array(STATUS_SLOTS);
    return this.counts;
  }

  /** The statuses seen and their counts (scrape time). */
  *statuses(): Generator<[status: number, count: number]> {
    const counts = this.counts;
    if (counts === null) return;
    for (let i = 0; i < STATUS_SLOTS; i++) if (counts[i]! > 0) yield [i + STATUS_MIN, counts[i]!];
  }
}

/**
 * Every route's RouteStats, by method and template. Entries are made only when routes are
 * registered and for the fixed set of "unmatched" labels: never from what a client sends.
 */
export class RouteStatsTable {
  private readonly byRoute = new Map<string, RouteStats>();
  private readonly unmatchedStats: Record<VariantLabel, RouteStats> = {
    a: new RouteStats('', UNMATCHED_ROUTE, 'a'),
    b: new RouteStats('', UNMATCHED_ROUTE, 'b'),
    admin: new RouteStats('', UNMATCHED_ROUTE, 'admin'),
    other: new RouteStats('', UNMATCHED_ROUTE, 'other'),
  };

  /** The stats of a registered route (made once, at registration). */
  forRoute(method: string, url: string): RouteStats {
    const key = `${method} ${url}`;
    let stats = this.byRoute.get(key);
    if (stats === undefined) {
      stats = new RouteStats(method, url, variantOf(url));
      this.byRoute.set(key, stats);
    }
    return stats;
  }

  /** A request no route matched: one label per variant, whatever the path. */
  unmatched(path: string): RouteStats {
    return this.unmatchedStats[variantOf(path)];
  }

  *all(): Generator<RouteStats> {
    yield* this.byRoute.values();
    yield* Object.values(this.unmatchedStats);
  }
}

import { Counter, collectDefaultMetrics, type Metric, Registry } from 'prom-client';
import type { VerificationStatus } from '../../core/coa/verification.ts';
import type { RateLimitScope } from '../../core/ratelimit/model.ts';
import type { OutboxLag } from '../../core/webhooks/delivery-ports.ts';
import { clusterRender } from './cluster-metrics.ts';
import { LATENCY_BUCKETS_S, type RouteStatsTable } from './route-stats.ts';

/*
 * Every metric of the service, in one registry per app plus the process's own (docs/reliability.md,
 * "Seen from outside", lists them). What the request path counts is kept as plain numbers where it happens (route
 * stats, the admission decision, the response cache, the CoA verifier, the delivery thread) and
 * read here at scrape time, in prom-client `collect()` callbacks: nothing on the request path
 * builds a label object or looks a label up.
 */

/** How many outbox events a scrape counts at most (the gauge then means "at least this many"). */
export const OUTBOX_COUNT_LIMIT = 10_000;
/** How long a scrape waits for the outbox query before leaving the outbox gauges out. */
export const OUTBOX_QUERY_TIMEOUT_MS = 1_000;

/** Webhook delivery attempts by outcome, as the delivery worker of this process counts them. */
export interface DeliveryAttemptCounts {
  succeeded: number;
  failed: number;
}

/** Where the metrics read what the service counted. */
export interface MetricSources {
  routes: RouteStatsTable;
  /** The admission decision's counts (admission.ts). */
  decisions: Readonly<Record<RateLimitScope, { readonly admitted: number; readonly limited: number }>>;
  /** The response cache's lookups (response-cache.ts). */
  cache: { readonly hits: number; readonly misses: number };
  /** CoA verifications by status (core/coa/verify-coa.ts). */
  coa: { readonly verified: Readonly<Record<VerificationStatus, number>> };
  /** The fan-out's lag behind the outbox, counted up to `limit` (the delivery store). */
  outboxLag(limit: number): Promise<OutboxLag>;
  /** The service clock (epoch ms), for the age of the oldest pending event. */
  nowMs(): number;
}

export interface ServiceMetrics {
  /** The app's own metrics (the process's are added when rendering). */
  readonly registry: Registry;
  /** The Prometheus text exposition of every metric, the process's included (content type: `contentType`). */
  render(): Promise<string>;
  readonly contentType: string;
  /**
   * Where this process's webhook delivery worker counts its attempts (main/server.ts sets it once
   * the worker starts; without it, the attempts metric is left out).
   */
  countDeliveriesFrom(source: () => DeliveryAttemptCounts): void;
}

/**
 * A metric prom-client formats from what get() returns; for values kept outside prom-client, and
 * for gauges that must be able to say nothing (no values: no sample line; a prom-client Gauge
 * without labels always has one, 0 after a reset).
 */
interface Collected {
  name: string;
  help: string;
  type: 'counter' | 'histogram' | 'gauge';
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    values: { metricName?: string; labels: Record<string, string | number>; value: number }[];
    aggregator: string;
  }>;
}

/**
 * The process's own metrics — event-loop lag (nodejs_eventloop_lag_*), heap (nodejs_heap_*), GC,
 * CPU, RSS, handles — in one registry per process, made on the first app's start: prom-client
 * starts an event-loop monitor and a GC observer for it and never stops them, so one per app would
 * pile up where a process builds many apps (the tests).
 */
let processRegistry: Registry | null = null;
const processMetrics = (): Registry => {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
};

export function createServiceMetrics(sources: MetricSources): ServiceMetrics {
  const registry = new Registry();
  const perProcess = processMetrics();

  const register = (m: Collected) => registry.registerMetric(m as unknown as Metric);

  register({
    name: 'purerank_http_requests_total',
    help: 'Requests answered, by method, route template (unmatched: no route), variant and status.',
    type: 'counter',
    async get() {
      const values: { labels: Record<string, string | number>; value: number }[] = [];
      for (const s of sources.routes.all())
        for (const [status, count] of s.statuses())
          values.push({
            labels: { method: s.method, route: s.route, variant: s.variant, status },
            value: count,
          });
      return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
    },
  });

  register({
    name: 'purerank_http_request_duration_seconds',
    help: 'Time from the request reaching the server to its answer, by method, route template and variant.',
    type: 'histogram',
    async get() {
      const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
      for (const s of sources.routes.all()) {
        if (s.requests === 0) continue;
        const labels = { method: s.method, route: s.route, variant: s.variant };
        let cumulative = 0;
        for (let b = 0; b < LATENCY_BUCKETS_S.length; b++) {
          cumulative += s.buckets[b]!;
          values.push({
            metricName: `${this.name}_bucket`,
            labels: { ...labels, le: LATENCY_BUCKETS_S[b]! },
            value: cumulative,
          });
        }
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { ...labels, le: '+Inf' },
          value: s.requests,
        });
        values.push({ metricName: `${this.name}_sum`, labels, value: s.sumS });
        values.push({ metricName: `${this.name}_count`, labels, value: s.requests });
      }
      return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
    },
  });

  new Counter({
    name: 'purerank_ratelimit_decisions_total',
    help: 'Rate-limit decisions by variant: admitted (counted against the key) or limited (429).',
    labelNames: ['variant', 'decision'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const variant of ['a', 'b'] as const) {
        const d = sources.decisions[variant];
        this.inc({ variant, decision: 'admitted' }, d.admitted);
        this.inc({ variant, decision: 'limited' }, d.limited);
      }
    },
  });

  new Counter({
    name: 'purerank_response_cache_hits_total',
    help: 'Cached reads answered from a cached body.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.cache.hits);
    },
  });
  new Counter({
    name: 'purerank_response_cache_misses_total',
    help: 'Cached reads that found no servable body and rendered one.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.cache.misses);
    },
  });

  new Counter({
    name: 'purerank_coa_verifications_total',
    help: 'CoA uploads verified, by the status of the verdict.',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [status, n] of Object.entries(sources.coa.verified)) this.inc({ status }, n);
    },
  });

  let deliveries: (() => DeliveryAttemptCounts) | null = null;
  new Counter({
    name: 'purerank_webhook_delivery_attempts_total',
    help: "Webhook delivery attempts by this process's delivery worker, by outcome (failed: any attempt not acknowledged with 2xx).",
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (deliveries === null) return;
      const d = deliveries();
      this.inc({ outcome: 'succeeded' }, d.succeeded);
      this.inc({ outcome: 'failed' }, d.failed);
    },
  });

  // The outbox is read once per scrape for both gauges; a query that fails or is slow leaves them
  // out of that scrape (and counts an error) rather than failing or holding the scrape.
  let lag: Promise<OutboxLag | null> | null = null;
  let outboxErrors = 0;
  const readLag = (): Promise<OutboxLag | null> => {
    lag ??= boundedLag(sources, () => {
      outboxErrors++;
    }).finally(() => {
      // The next scrape reads again; both gauges and the error count of this scrape share one read.
      setImmediate(() => {
        lag = null;
      });
    });
    return lag;
  };
  register({
    name: 'purerank_outbox_lag_errors_total',
    help: 'Scrapes whose outbox query failed or took longer than 1 s (the outbox gauges were left out).',
    type: 'counter',
    async get() {
      // prom-client collects every metric of a scrape at once: awaiting this scrape's read makes
      // its failure count in the same scrape that leaves the gauges out, not the next one.
      await readLag();
      return {
        name: this.name,
        help: this.help,
        type: this.type,
        values: [{ labels: {}, value: outboxErrors }],
        aggregator: 'sum',
      };
    },
  });
  // Left out, not 0, when the read failed or was late: a 0 would read as "nothing pending" and
  // clear the backlog alert exactly while the database is away. Under `serve --workers N` the
  // primary takes the maximum over the workers that have a value (prom-client's 'max' aggregator
  // groups the values it is given; a worker with none adds none), and none when no worker has one.
  const outboxGauge = (name: string, help: string, value: (l: OutboxLag) => number): Collected => ({
    name,
    help,
    type: 'gauge',
    async get() {
      const l = await readLag();
      return {
        name,
        help,
        type: 'gauge',
        values: l ? [{ labels: {}, value: value(l) }] : [],
        // One database behind every worker: their readings agree, so the aggregate is one of them.
        aggregator: 'max',
      };
    },
  });
  register(
    outboxGauge(
      'purerank_outbox_pending_events',
      `Events written but not yet fanned out to webhook endpoints (counted up to ${OUTBOX_COUNT_LIMIT}).`,
      (l) => l.events,
    ),
  );
  register(
    outboxGauge(
      'purerank_outbox_oldest_pending_age_seconds',
      'Age of the oldest event not yet fanned out to webhook endpoints (0 when there is none).',
      (l) => (l.oldestAtMs === null ? 0 : Math.max(0, (sources.nowMs() - l.oldestAtMs) / 1000)),
    ),
  );

  return {
    registry,
    contentType: registry.contentType,
    // A merged view per scrape (a few dozen metric objects; the values stay where they are).
    // A worker of `serve --workers N` answers with every worker's metrics, through the primary.
    render: clusterRender([perProcess, registry]) ?? (() => Registry.merge([perProcess, registry]).metrics()),
    countDeliveriesFrom(source) {
      deliveries = source;
    },
  };
}

/** The outbox query within its time limit; null (and `failed()`) if it fails or is late. */
async function boundedLag(sources: MetricSources, failed: () => void): Promise<OutboxLag | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), OUTBOX_QUERY_TIMEOUT_MS);
  });
  try {
    const lag = await Promise.race([sources.outboxLag(OUTBOX_COUNT_LIMIT), late]);
    if (lag === null) failed();
    return lag;
  } catch {
    failed();
    return null;
  } finally {
    clearTimeout(timer);
  }
}

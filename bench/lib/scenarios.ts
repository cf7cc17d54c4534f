import { scaleBatchId } from '../../src/core/seed/scale-dataset.ts';
import { mulberry32 } from './stats.ts';

/** The rate limit a scenario's keys are budgeted against (mirrors what the service enforces). */
export interface KeyPolicy {
  /** Rate-limit scope of the variant, as stored by the service ('a' = /v1, 'b' = /api/v1). */
  scope: 'a' | 'b';
  /** Requests per window per key for the `enterprise` plan. */
  limit: number;
  /** Variant B: rolling 24 h. Variant A: fixed UTC hours. */
  window: 'rolling-24h' | 'utc-hour';
}

export interface Target {
  /** Service req/s must be at least this fraction of the bare server's, same run (median of rounds). */
  minRatio?: number;
  /** Service p99 latency must be at most this many ms (median of rounds). */
  maxP99Ms?: number;
}

export interface ScenarioContext {
  /** Batches in the scale dataset: scaleBatchId(i) exists for i < batches. */
  batches: number;
}

/**
 * One benchmarked request mix. Adding a scenario (say Variant A's `/v1/search`) is one entry in
 * SCENARIOS below: run.ts plans keys, captures the service's bytes for the bare server, loads both
 * and judges the target from this description alone.
 */
export interface Scenario {
  /** Name for --only and the report. */
  name: string;
  /** What is measured, for the report. */
  title: string;
  /** Request paths (with query string). One path is sent every time; several are rotated round-robin. */
  paths(ctx: ScenarioContext): string[];
  /** How the key is sent. */
  auth: { header: string; prefix: string };
  /** The rate limit the keys are spent against. */
  policy: KeyPolicy;
  target: Target;
}

/** Variant B, enterprise: 1,000 requests per key per rolling 24 h (config DEFAULTS.limits.daily). */
export const VARIANT_B_ENTERPRISE: KeyPolicy = { scope: 'b', limit: 1000, window: 'rolling-24h' };
const BEARER = { header: 'Authorization', prefix: 'Bearer ' };

/** Existing and missing batch numbers, interleaved in a fixed pseudo-random order (same on every run). */
export function batchPaths(ctx: ScenarioContext, perKind = 1000, seed = 0x5eed): string[] {
  const rnd = mulberry32(seed);
  const pick = (n: number, offset: number): number[] => {
    const seen = new Set<number>();
    while (seen.size < perKind) seen.add(offset + Math.floor(rnd() * n));
    return [...seen];
  };
  const existing = pick(ctx.batches, 0);
  // scaleBatchId(batches + k) is guaranteed not to exist (scale-dataset.ts).
  const missing = pick(1_000_000, ctx.batches);
  const ids = [...existing, ...missing];
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.map((i) => `/api/v1/batches/${encodeURIComponent(scaleBatchId(i))}`);
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'vendors',
    title: 'B GET /api/v1/vendors?limit=50',
    paths: () => ['/api/v1/vendors?limit=50'],
    auth: BEARER,
    policy: VARIANT_B_ENTERPRISE,
    target: { minRatio: 0.8 },
  },
  {
    name: 'batches',
    title: 'B GET /api/v1/batches/{id} (1k existing + 1k missing)',
    paths: batchPaths,
    auth: BEARER,
    policy: VARIANT_B_ENTERPRISE,
    target: { minRatio: 0.5 },
  },
  // Variant A, when its routes land (keys budgeted per UTC hour, scope 'a'):
  // { name: 'a-vendors', title: 'A GET /v1/vendors', paths: () => ['/v1/vendors'], auth: BEARER,
  //   policy: { scope: 'a', limit: 10_000, window: 'utc-hour' }, target: { minRatio: 0.8 } },
  // { name: 'a-search', title: 'A GET /v1/search?q=…', paths: () => [...], auth: BEARER,
  //   policy: { scope: 'a', limit: 10_000, window: 'utc-hour' }, target: { maxP99Ms: 5 } },
];

/** Memory target of issue [1]: resident set of the service with the scale dataset loaded. */
export const MAX_RSS_MB = 300;

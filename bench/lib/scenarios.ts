import { DEMO_PEPTIDES } from '../../src/seed/demo-peptides.ts';
import { scaleBatchId, scaleVendorName } from '../../src/seed/scale-dataset.ts';
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
/** Variant A, enterprise: 10,000 requests per key per UTC hour (config DEFAULTS.limits.hourly). */
export const VARIANT_A_ENTERPRISE: KeyPolicy = { scope: 'a', limit: 10_000, window: 'utc-hour' };
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
  {
    name: 'a-vendors',
    title: 'A GET /v1/vendors',
    paths: () => ['/v1/vendors'],
    auth: BEARER,
    policy: VARIANT_A_ENTERPRISE,
    target: { minRatio: 0.8 },
  },
  {
    name: 'a-search',
    title: 'A GET /v1/search?q=… (1,000 varied queries)',
    paths: searchPaths,
    auth: BEARER,
    policy: VARIANT_A_ENTERPRISE,
    target: { minRatio: 0.4, maxP99Ms: 5 },
  },
];

/**
 * What people type into a search box: peptide names in their usual spellings (with and without
 * punctuation, lower case, aliases), prefixes while typing, one-letter typos, vendor names and
 * their first words, countries. Deterministic, 1,000 distinct queries.
 */
export function searchPaths(_ctx: ScenarioContext, count = 1000, seed = 0x5ea7c4): string[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const typo = (w: string): string => {
    if (w.length < 5) return w;
    const i = 1 + Math.floor(rnd() * (w.length - 2));
    return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2); // two neighbouring letters swapped
  };
  const forms: (() => string)[] = [
    () => pick(DEMO_PEPTIDES).name,
    () =>
      pick(DEMO_PEPTIDES)
        .name.toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
    () => pick(DEMO_PEPTIDES).name.replace('-', ' '),
    () => {
      const n = pick(DEMO_PEPTIDES).name.toLowerCase();
      return n.slice(0, 2 + Math.floor(rnd() * Math.max(1, n.length - 2)));
    },
    () => typo(pick(DEMO_PEPTIDES).name.toLowerCase()),
    () => pick(DEMO_PEPTIDES.flatMap((p) => p.aliases)) ?? 'bpc 157',
    () => scaleVendorName(Math.floor(rnd() * 10_000)),
    () =>
      scaleVendorName(Math.floor(rnd() * 10_000))
        .split(' ')
        .slice(0, 2)
        .join(' '),
    () =>
      scaleVendorName(Math.floor(rnd() * 10_000))
        .split(' ')[0]!
        .toLowerCase(),
    () => pick(['canada', 'germany', 'united states', 'netherlands', 'labs', 'peptide co', 'research']),
  ];
  const seen = new Set<string>();
  for (let guard = 0; seen.size < count && guard < count * 50; guard++) {
    const q = pick(forms)().trim();
    if (q) seen.add(q);
  }
  return [...seen].map((q) => `/v1/search?q=${encodeURIComponent(q)}`);
}

/** Memory target of issue [1]: resident set of the service with the scale dataset loaded. */
export const MAX_RSS_MB = 300;

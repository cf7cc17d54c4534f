import type { RateLimitScope } from '../ratelimit/model.ts';

/**
 * Usage per key, variant and UTC hour (issue [8], DESIGN.md §6): counted requests (what the
 * limiter counts, so a refunded 304 is not one) and 429s apart. Recorded in memory on the request
 * path and flushed in batches, kept 90 days.
 */
export interface UsagePoint {
  /** Start of the hour (or day), epoch ms. */
  t: number;
  requests: number;
  limited: number;
}

export interface UsageSeries {
  keyId: string;
  scope: RateLimitScope;
  points: UsagePoint[];
}

/** One key's standing right now in one variant, from the limiter (not counted). */
export interface UsageNow {
  keyId: string;
  scope: RateLimitScope;
  used: number;
  limit: number;
  /** When the window resets (A: the next UTC hour) or the oldest counted request leaves it (B). */
  resetsAt: string;
}

/** The request path's side: synchronous, allocation-free in the steady state, never I/O. */
export interface UsageRecorder {
  /** A counted request (admitted by the limiter). */
  counted(keyId: string, scope: RateLimitScope, nowMs: number): void;
  /** A counted request refunded (a 304). */
  refunded(keyId: string, scope: RateLimitScope, nowMs: number): void;
  /** A request refused with 429. */
  limited(keyId: string, scope: RateLimitScope, nowMs: number): void;
}

export interface UsageService {
  /** Each of the account's live keys in each variant its plan grants. */
  current(accountId: number): Promise<UsageNow[]>;
  /** Requests per hour over the last `hours` (at most 7 × 24), one series per key and variant. */
  hourly(accountId: number, hours: number): Promise<UsageSeries[]>;
  /** Requests per UTC day over the last `days` (at most 90). */
  daily(accountId: number, days: number): Promise<UsageSeries[]>;
}

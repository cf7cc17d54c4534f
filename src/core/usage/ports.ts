import type { RateLimitScope } from '../ratelimit/model.ts';

/** One key's counts in one variant and one UTC hour, as stored and as flushed (added to what is stored). */
export interface UsageRow {
  keyId: string;
  scope: RateLimitScope;
  /** Epoch hours (ms / 3,600,000). */
  hour: number;
  /** Counted requests; a flush may carry a negative number (refunds of requests written earlier). */
  requests: number;
  limited: number;
  /** Epoch ms of the hour's last request, or null. */
  lastAt: number | null;
}

/** One key's counts in one variant and one UTC day. */
export interface UsageDayRow {
  keyId: string;
  scope: RateLimitScope;
  /** Epoch days (ms / 86,400,000): UTC days. */
  day: number;
  requests: number;
  limited: number;
}

/** usage_hourly: per key, variant and hour, kept 90 days (issue [8]). */
export interface UsageStore {
  /**
   * Adds the rows to what is stored: requests and limited add up, last_at keeps the later time. So
   * the flushes of several instances, and a retried flush's rows, add up rather than overwrite.
   */
  add(rows: readonly UsageRow[]): Promise<void>;
  /** The account's rows (all its keys, revoked ones too) of hours from `fromHour` on. */
  hourly(accountId: number, fromHour: number): Promise<UsageRow[]>;
  /** The account's counts per UTC day, of days from `fromDay` on. */
  daily(accountId: number, fromDay: number): Promise<UsageDayRow[]>;
  /** The last use (epoch ms) of each of the account's keys that has one on record. */
  lastUsed(accountId: number): Promise<Map<string, number>>;
  /** Deletes the rows of hours before `beforeHour` (an index range); returns how many. */
  prune(beforeHour: number): Promise<number>;
}

/** Counts recorded in memory and not yet in the store (the meter's), so a request shows at once. */
export interface UsagePending {
  /** Rows of these keys not yet written, flushes in progress included. */
  pending(keyIds: ReadonlySet<string>): UsageRow[];
}

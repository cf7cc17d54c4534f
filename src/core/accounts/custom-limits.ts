import type { Plan } from './model.ts';

/**
 * Per-account rate limits (`rateLimitA`, `rateLimitB`) belong to the `custom` plan: every other
 * plan uses its own limits and would ignore them. One rule for every way an account is written
 * (operator API, CLI, import `account` records), so a limit is never accepted, echoed back, and
 * then not applied:
 * - a non-null limit with a plan other than `custom` is refused;
 * - an account that is not `custom` holds no limits: moving off `custom` clears them (a later move
 *   back to `custom` starts from the plan defaults unless limits are given again).
 */

export interface AccountLimits {
  rateLimitA?: number | null | undefined;
  rateLimitB?: number | null | undefined;
}

/** The field of the first limit a plan does not use, or null when the limits fit the plan. */
export function misplacedLimit(plan: Plan, limits: AccountLimits): 'rateLimitA' | 'rateLimitB' | null {
  if (plan === 'custom') return null;
  if (limits.rateLimitA != null) return 'rateLimitA';
  if (limits.rateLimitB != null) return 'rateLimitB';
  return null;
}

/** The words for misplacedLimit's answer, without a final period (an import line error has none). */
export const misplacedLimitMessage = (field: 'rateLimitA' | 'rateLimitB', plan: Plan): string =>
  `${field} applies to the custom plan only; plan '${plan}' uses its own limits`;

/** An account record as stored: one that is not custom holds no limits (null: the plan's own). */
export function fitLimits<R extends { plan: Plan } & AccountLimits>(record: R): R {
  return record.plan === 'custom' ? record : { ...record, rateLimitA: null, rateLimitB: null };
}

/**
 * Bounds of a per-account limit (decision 0006, "Bounds of custom limits"). Integers only: the
 * limit is echoed in `X-RateLimit-Limit`, which the spec types as an integer.
 * - A (fixed UTC-hour window): one counter per key whatever the limit, so the bound only keeps
 *   the number an exact, plausible integer; 10,000,000 / h is ~2,800 requests per second per key.
 * - B (rolling 24 h): the window keeps 4 bytes per counted request (decision 0005), so the bound
 *   is a memory bound: 1,000,000 requests ≈ 4 MB of ring per key at most.
 */
export const RATE_LIMIT_BOUNDS = {
  rateLimitA: { min: 1, max: 10_000_000 },
  rateLimitB: { min: 1, max: 1_000_000 },
} as const;
export type LimitField = keyof typeof RATE_LIMIT_BOUNDS;

const inBounds = (field: LimitField, n: number): boolean =>
  Number.isSafeInteger(n) && n >= RATE_LIMIT_BOUNDS[field].min && n <= RATE_LIMIT_BOUNDS[field].max;

/** The first limit that is not an integer within its bounds (null: the plan default, fine). */
export function outOfBoundsLimit(limits: AccountLimits): LimitField | null {
  for (const field of ['rateLimitA', 'rateLimitB'] as const) {
    const v = limits[field];
    if (v != null && !inBounds(field, v)) return field;
  }
  return null;
}

/** The words for outOfBoundsLimit's answer, without a final period (an import line error has none). */
export const outOfBoundsMessage = (field: LimitField): string =>
  `${field} must be a whole number from ${RATE_LIMIT_BOUNDS[field].min} to ` +
  `${RATE_LIMIT_BOUNDS[field].max.toLocaleString('en-US')}`;

/**
 * A stored limit as applied and shown: an account written before the bounds existed may hold a
 * value outside them (1e22, 2.5); it is clamped when read, not refused, so its keys keep working
 * with integer headers and a bounded window, and the next write of the account must be in bounds.
 */
export function appliedLimit(field: LimitField, stored: number | null): number | null {
  if (stored === null || Number.isNaN(stored)) return null;
  const { min, max } = RATE_LIMIT_BOUNDS[field];
  return Math.min(max, Math.max(min, Math.floor(stored)));
}

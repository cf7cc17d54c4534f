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

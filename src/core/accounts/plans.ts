import type { Plan } from './model.ts';

/**
 * What a plan may call (DESIGN.md §4). Routes declare the access they need; one hook enforces it.
 * `read`: the read endpoints of both variants. `enterprise`: CoA upload, webhooks.
 */
export type Access = 'read' | 'enterprise';

const GRANTS: Record<Plan, ReadonlySet<Access>> = {
  free: new Set(),
  pro: new Set(['read']),
  enterprise: new Set(['read', 'enterprise']),
  custom: new Set(['read', 'enterprise']),
};

export const planAllows = (plan: Plan, access: Access): boolean => GRANTS[plan].has(access);

/** What a plan may call, as one shared set per plan (callers that keep it skip the plan lookup). */
export const grantsOf = (plan: Plan): ReadonlySet<Access> => GRANTS[plan];

export const planRequiredMessage = (access: Access): string =>
  access === 'enterprise'
    ? 'This endpoint requires the Enterprise plan.'
    : 'API access requires a Pro or Enterprise plan.';

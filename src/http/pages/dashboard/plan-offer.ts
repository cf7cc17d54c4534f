import type { Config } from '../../../config/config.ts';
import type { Plan } from '../../../core/accounts/model.ts';
import { type Access, planAllows } from '../../../core/accounts/plans.ts';

/** What a plan includes, as the pages say it: from the plans' grants and the configured limits. */
export interface PlanFacts {
  plan: Plan;
  /** Both variants' read endpoints (API keys are of use). */
  api: boolean;
  /** Webhooks and CoA verification. */
  enterprise: boolean;
  /** Variant A's requests per UTC hour, Variant B's per rolling 24 h (the plan's defaults). */
  hourly: number;
  daily: number;
}

const facts = (config: Readonly<Config>, plan: Plan): PlanFacts => ({
  plan,
  api: planAllows(plan, 'read'),
  enterprise: planAllows(plan, 'enterprise'),
  hourly: config.limits.hourly[plan],
  daily: config.limits.daily[plan],
});

/**
 * For a page whose feature the account's plan lacks: the plan it is on and what Enterprise would
 * unlock (plans.ts decides; this only words it). `needs` names the access the page is about.
 */
export const planOffer = (config: Readonly<Config>, plan: Plan, needs: Access) => ({
  current: facts(config, plan),
  enterprise: facts(config, 'enterprise'),
  pro: facts(config, 'pro'),
  needs,
});

export type PlanOffer = ReturnType<typeof planOffer>;

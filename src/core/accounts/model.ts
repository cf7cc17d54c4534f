export const PLANS = ['free', 'pro', 'enterprise', 'custom'] as const;
export type Plan = (typeof PLANS)[number];

/** A customer: it holds a plan, API keys, claimed vendors and (later) users and webhook endpoints. */
export interface Account {
  id: number;
  name: string;
  plan: Plan;
  /** Per-account limits, used by the `custom` plan; null = the plan's default. */
  rateLimitA: number | null;
  rateLimitB: number | null;
  createdAt: string;
}

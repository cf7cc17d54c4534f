import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/config.ts';
import { appliedLimit } from '../../core/accounts/custom-limits.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { Principal } from '../../core/keys/model.ts';
import type { RateLimitPolicy } from '../../core/ratelimit/model.ts';
import type { ScopeRules } from '../admission.ts';
import { registerGuard } from '../guard.ts';
import type { VariantContext, VariantRoutes } from '../variant-context.ts';
import { getPriceHistoryRoute, getPriceStatsRoute } from './routes/get-price-stats.ts';
import { getPricesRoute } from './routes/get-prices.ts';
import { getVendorRoute } from './routes/get-vendor.ts';
import { listVendorsRoute } from './routes/list-vendors.ts';
import { lookupBatchRoute } from './routes/lookup-batch.ts';

export const VARIANT_B_PREFIX = '/api/v1';

/** Variant B (`/api/v1`): a thin adapter: parse, call the core, present in B's shape. */
export function variantB(ctx: VariantContext, extra?: VariantRoutes) {
  const { services, cache } = ctx;
  return async function plugin(app: FastifyInstance): Promise<void> {
    registerGuard(app, ctx, 'b');
    listVendorsRoute(app, services, cache);
    getVendorRoute(app, services, cache);
    getPricesRoute(app, services, cache);
    getPriceStatsRoute(app, services, cache);
    getPriceHistoryRoute(app, services, cache);
    lookupBatchRoute(app, services, cache);
    extra?.(app, ctx);
  };
}

/** Variant B's quota per caller and the words of its 429 (naming the limit, as the spec asks). */
export function rulesB(config: Readonly<Config>): ScopeRules {
  return {
    policyFor: policiesB(config),
    limitMessage: (policy, retryAfter) =>
      `Rate limit exceeded: ${policy.limit} requests per 24 hours per key (rolling window). Retry in ${retryAfter} s.`,
  };
}

/** The rate-limit policy of each caller on this variant, one shared object per distinct limit. */
export function policiesB(config: Readonly<Config>): (principal: Principal) => RateLimitPolicy {
  const policies = new Map<number, RateLimitPolicy>();
  return (p: Principal): RateLimitPolicy => {
    // Per-account limits are a custom-plan arrangement; every other plan gets its plan's limit.
    // A stored limit outside the bounds (written before them) is clamped: custom-limits.ts.
    const limit =
      (p.plan === 'custom' ? appliedLimit('rateLimitB', p.rateLimitB) : null) ?? config.limits.daily[p.plan];
    let policy = policies.get(limit);
    if (!policy) {
      policy = { kind: 'rolling', limit, windowMs: DAY_MS };
      policies.set(limit, policy);
    }
    return policy;
  };
}

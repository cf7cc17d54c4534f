import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/config.ts';
import { appliedLimit } from '../../core/accounts/custom-limits.ts';
import { HOUR_MS } from '../../core/clock.ts';
import type { Principal } from '../../core/keys/model.ts';
import type { RateLimitPolicy } from '../../core/ratelimit/model.ts';
import type { ScopeRules } from '../admission.ts';
import { registerGuard } from '../guard.ts';
import type { VariantContext, VariantRoutes } from '../variant-context.ts';
import { coaRoutes } from './routes/coa.ts';
import { eventRoutes } from './routes/events.ts';
import { getVendorRoute } from './routes/get-vendor.ts';
import { listVendorsRoute } from './routes/list-vendors.ts';
import { peptideRoutes } from './routes/peptides.ts';
import { searchRoute } from './routes/search.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export const VARIANT_A_PREFIX = '/v1';

/** Variant A (`/v1`): a thin adapter over the same core as Variant B, in A's own shapes. */
export function variantA(ctx: VariantContext, extra?: VariantRoutes) {
  const { services, cache } = ctx;
  return async function plugin(app: FastifyInstance): Promise<void> {
    registerGuard(app, ctx, 'a');
    listVendorsRoute(app, services, cache);
    getVendorRoute(app, services, cache);
    peptideRoutes(app, services, cache);
    searchRoute(app, services, cache, services.search);
    await coaRoutes(app, services);
    webhookRoutes(app, services);
    eventRoutes(app, services);
    extra?.(app, ctx);
  };
}

/** Variant A's quota per caller and the words of its 429. */
export function rulesA(config: Readonly<Config>): ScopeRules {
  return {
    policyFor: policiesA(config),
    limitMessage: (policy, retryAfter) =>
      `Rate limit exceeded: ${policy.limit} requests per hour per key (the window resets on the UTC hour). Retry in ${retryAfter} s.`,
  };
}

/** The rate-limit policy of each caller on this variant, one shared object per distinct limit. */
export function policiesA(config: Readonly<Config>): (principal: Principal) => RateLimitPolicy {
  const policies = new Map<number, RateLimitPolicy>();
  return (p: Principal): RateLimitPolicy => {
    // Per-account limits are a custom-plan arrangement; every other plan gets its plan's limit.
    // A stored limit outside the bounds (written before them) is clamped: custom-limits.ts.
    const limit =
      (p.plan === 'custom' ? appliedLimit('rateLimitA', p.rateLimitA) : null) ?? config.limits.hourly[p.plan];
    let policy = policies.get(limit);
    if (!policy) {
      // Fixed windows aligned to the UTC hour: the epoch is hour-aligned, so windowMs alone does it.
      policy = { kind: 'fixed', limit, windowMs: HOUR_MS };
      policies.set(limit, policy);
    }
    return policy;
  };
}

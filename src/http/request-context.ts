import type { Access } from '../core/accounts/plans.ts';
import type { Principal } from '../core/keys/model.ts';
import type { RateLimitDecision, RateLimitPolicy } from '../core/ratelimit/model.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the variant guard once the key is valid. */
    principal: Principal | null;
    /** The counted rate-limit decision, kept so a 304 can refund it. */
    rate: { decision: RateLimitDecision; policy: RateLimitPolicy } | null;
  }
  interface FastifyContextConfig {
    /** What a route needs from the caller's plan (DESIGN.md §4). Unset: 'read'. */
    access?: Access;
  }
}

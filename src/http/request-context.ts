import type { Access } from '../core/accounts/plans.ts';
import type { Principal } from '../core/keys/model.ts';
import type { RateLimitHit, RateLimitPolicy } from '../core/ratelimit/model.ts';
import type { CachedRead } from './cached-read.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the variant guard once the key is valid. */
    principal: Principal | null;
    /** The admitted request's quota numbers and counted hit, kept so a 304 can refund it. */
    rate: { policy: RateLimitPolicy; remaining: number; hit: RateLimitHit | null } | null;
  }
  interface FastifyContextConfig {
    /**
     * What a route needs from the caller's plan (DESIGN.md §4). Every route of a variant declares it
     * (the guard refuses to register one that does not); the guard and the fast path both read it.
     */
    access?: Access;
    /** The route answers cached bodies under this key: the fast path may answer it too (decision 0018). */
    cachedRead?: CachedRead;
    /** A GET that is not a cached read still answers with an ETag and 304 (conditional.ts sendJson). */
    conditional?: boolean;
  }
}

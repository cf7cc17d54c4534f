import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../core/keys/model.ts';
import { planAllows, planRequiredMessage } from '../core/keys/plans.ts';
import type { RateLimitDecision, RateLimitPolicy, RateLimitScope } from '../core/ratelimit/model.ts';
import { sendError } from './error-body.ts';
import { INVALID_KEY_MESSAGE } from './error-status.ts';
import { notFoundHandler } from './errors.ts';
import type { AppServices } from './services.ts';

export interface GuardOptions {
  scope: RateLimitScope;
  policyFor(principal: Principal): RateLimitPolicy;
  /** The 429 message, naming the limit. */
  limitMessage(policy: RateLimitPolicy, retryAfterS: number): string;
}

const setRateHeaders = (reply: FastifyReply, policy: RateLimitPolicy, d: RateLimitDecision): void => {
  reply.header('x-ratelimit-limit', policy.limit);
  reply.header('x-ratelimit-remaining', d.remaining);
  reply.header('x-ratelimit-reset', Math.ceil(d.resetAtMs / 1000));
};

/**
 * The one gate in front of every route of a variant: fresh data versions, a valid key, a plan
 * that allows the route (declared per route as `config.access`), then the rate limit. Order
 * matters for what is counted: 401, 403 and 429 are not counted; everything past the gate is,
 * except a 304, which sendJson() refunds.
 */
export function registerGuard(app: FastifyInstance, services: AppServices, opts: GuardOptions): void {
  const { freshness, auth, limiter } = services;
  // A 404 handler of the variant's own, so unknown routes under its prefix pass this guard too.
  app.setNotFoundHandler(notFoundHandler);
  app.decorateRequest('principal', null);
  app.decorateRequest('rate', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const pending = freshness.check();
    if (pending) await pending;
    const result = await auth.authenticate(request.headers.authorization);
    if (request.is404) {
      // An unknown route is 404 whatever the key (no 401 that would confirm the path is guarded),
      // but a valid key still learns its quota; nothing is counted.
      if (result.ok) {
        const policy = opts.policyFor(result.principal);
        setRateHeaders(reply, policy, await limiter.peek(result.principal.keyId, opts.scope, policy));
      }
      return undefined;
    }
    if (!result.ok) return sendError(request, reply, 'invalid_api_key', INVALID_KEY_MESSAGE);
    const principal = result.principal;
    request.principal = principal;
    const policy = opts.policyFor(principal);
    const access = request.routeOptions.config.access ?? 'read';
    if (!planAllows(principal.plan, access)) {
      setRateHeaders(reply, policy, await limiter.peek(principal.keyId, opts.scope, policy));
      return sendError(request, reply, 'plan_required', planRequiredMessage(access));
    }
    const decision = await limiter.consume(principal.keyId, opts.scope, policy);
    setRateHeaders(reply, policy, decision);
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      reply.header('retry-after', retryAfter);
      return sendError(request, reply, 'rate_limited', opts.limitMessage(policy, retryAfter));
    }
    request.rate = { decision, policy };
    return undefined;
  });
}

/** Un-counts the request's hit (a 304) and corrects the remaining-requests header. */
export async function refundRate(
  services: AppServices,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const rate = request.rate;
  if (!rate?.decision.hit) return;
  await services.limiter.refund(rate.decision.hit, rate.policy);
  reply.header('x-ratelimit-remaining', Math.min(rate.policy.limit, rate.decision.remaining + 1));
  request.rate = null;
}

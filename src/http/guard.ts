import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { planAllows, planRequiredMessage } from '../core/accounts/plans.ts';
import type { AuthResult } from '../core/keys/authenticate.ts';
import type { Principal } from '../core/keys/model.ts';
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
 *
 * It runs on every request, so it is written to stay synchronous when it can: a known key, an
 * in-memory limiter and unchanged data versions cost no promise and no microtask. Only a key not
 * seen since the last key change, a data change, or the Redis limiter take the async path.
 */
export function registerGuard(app: FastifyInstance, services: AppServices, opts: GuardOptions): void {
  const { freshness, auth, limiter } = services;
  // A 404 handler of the variant's own, so unknown routes under its prefix pass this guard too.
  app.setNotFoundHandler(notFoundHandler);
  app.decorateRequest('principal', null);
  app.decorateRequest('rate', null);

  const peek = (keyId: string, policy: RateLimitPolicy): RateLimitDecision | Promise<RateLimitDecision> =>
    limiter.peekSync ? limiter.peekSync(keyId, opts.scope, policy) : limiter.peek(keyId, opts.scope, policy);
  const consume = (keyId: string, policy: RateLimitPolicy): RateLimitDecision | Promise<RateLimitDecision> =>
    limiter.consumeSync
      ? limiter.consumeSync(keyId, opts.scope, policy)
      : limiter.consume(keyId, opts.scope, policy);

  /** After authentication: 404 headers, plan gate, rate limit. true = a reply was sent. */
  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: AuthResult,
  ): boolean | Promise<boolean> => {
    if (request.is404) {
      // An unknown route is 404 whatever the key (no 401 that would confirm the path is guarded),
      // but a valid key still learns its quota; nothing is counted.
      if (!result.ok) return false;
      const policy = opts.policyFor(result.principal);
      return then(peek(result.principal.keyId, policy), (d) => {
        setRateHeaders(reply, policy, d);
        return false;
      });
    }
    if (!result.ok) {
      sendError(request, reply, 'invalid_api_key', INVALID_KEY_MESSAGE);
      return true;
    }
    const principal = result.principal;
    request.principal = principal;
    const policy = opts.policyFor(principal);
    const access = request.routeOptions.config.access ?? 'read';
    if (!planAllows(principal.plan, access)) {
      return then(peek(principal.keyId, policy), (d) => {
        setRateHeaders(reply, policy, d);
        sendError(request, reply, 'plan_required', planRequiredMessage(access));
        return true;
      });
    }
    return then(consume(principal.keyId, policy), (decision) => {
      setRateHeaders(reply, policy, decision);
      if (!decision.allowed) {
        const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        reply.header('retry-after', retryAfter);
        sendError(request, reply, 'rate_limited', opts.limitMessage(policy, retryAfter));
        return true;
      }
      request.rate = { decision, policy };
      return false;
    });
  };

  const authenticateAndAdmit = (request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> => {
    const header = request.headers.authorization;
    const cached = auth.authenticateCached(header);
    if (cached) return admit(request, reply, cached);
    return auth.authenticate(header).then((result) => admit(request, reply, result));
  };

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let outcome: boolean | Promise<boolean>;
    try {
      const pending = freshness.check();
      outcome = pending
        ? pending.then(() => authenticateAndAdmit(request, reply))
        : authenticateAndAdmit(request, reply);
    } catch (err) {
      return done(err as Error);
    }
    if (outcome === false) return done();
    if (outcome === true) return;
    // A reply sent by the hook ends the request; Fastify must not be told to go on.
    outcome.then(
      (sent) => {
        if (!sent) done();
      },
      (err: Error) => done(err),
    );
  });
}

/** Applies f now for a plain value, or when a promise settles. */
function then<T, R>(value: T | Promise<T>, f: (v: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Un-counts the request's hit (a 304) and corrects the remaining-requests header. */
export function refundRate(services: AppServices, request: FastifyRequest, reply: FastifyReply): void {
  const rate = request.rate;
  if (!rate?.decision.hit) return;
  // The in-memory limiter refunds at once; the Redis one in one round trip we need not wait for.
  services.limiter.refund(rate.decision.hit, rate.policy).catch((err: unknown) => {
    request.log.warn({ err, request_id: request.id }, 'rate-limit refund failed');
  });
  reply.header('x-ratelimit-remaining', Math.min(rate.policy.limit, rate.decision.remaining + 1));
  request.rate = null;
}

import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RateLimitScope } from '../core/ratelimit/model.ts';
import type { AdmissionResult, RateHeaders } from './admission.ts';
import { sendError } from './error-body.ts';
import type { AppServices } from './services.ts';
import type { VariantContext } from './variant-context.ts';

export const setRateHeaders = (reply: FastifyReply, rate: RateHeaders): void => {
  reply.header('x-ratelimit-limit', rate.limitText);
  reply.header('x-ratelimit-remaining', rate.remaining);
  reply.header('x-ratelimit-reset', rate.resetText);
};

/**
 * The gate in front of every route of a variant: fresh data versions, then the one admission
 * decision (admission.ts: key, the plan against the route's declared `config.access`, the rate
 * limit), whose answer this only writes out. Everything past the gate is counted, except a 304,
 * which sendJson() refunds.
 *
 * It runs on every request, so it stays synchronous when it can: a known key, an in-memory limiter
 * and unchanged data versions cost no promise and no microtask.
 */
export function registerGuard(app: FastifyInstance, ctx: VariantContext, scope: RateLimitScope): void {
  const { admission, fast } = ctx;
  const { freshness } = ctx.services;
  // A 404 handler of the variant's own, so unknown routes under its prefix pass this guard too.
  app.setNotFoundHandler(ctx.notFound);
  app.decorateRequest('principal', null);
  app.decorateRequest('rate', null);
  app.addHook('onRoute', (route) => {
    // Every route says what it needs from the caller's plan, once (decision 0018).
    const access = route.config?.access;
    if (access === undefined)
      throw new Error(`Route ${route.method} ${route.url} declares no config.access.`);
    // A cached read is answered by the fast path too, from this same declaration.
    const cachedRead = route.config?.cachedRead;
    if (route.method === 'GET' && cachedRead) {
      const { params, querystring } = route.schema ?? {};
      fast.declare({ url: route.url, scope, access, params, querystring, cachedRead });
    }
  });

  /** Writes the decision out; true = a reply was sent. */
  const answer = (request: FastifyRequest, reply: FastifyReply, result: AdmissionResult): boolean => {
    if (request.is404) {
      // An unknown route is 404 whatever the key (no 401 that would confirm the path is guarded),
      // but a valid key still learns its quota; nothing is counted.
      if (result.ok) setRateHeaders(reply, result);
      return false;
    }
    if (!result.ok) {
      if (result.rate) setRateHeaders(reply, result.rate);
      if (result.retryAfterS !== null) reply.header('retry-after', result.retryAfterS);
      sendError(request, reply, result.code, result.message);
      return true;
    }
    setRateHeaders(reply, result);
    request.principal = result.principal;
    // A copy: the admitted answer is the key's lane, which the key's next request updates in place.
    request.rate = { policy: result.policy, remaining: result.remaining, hit: result.hit() };
    return false;
  };

  const decide = (request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> => {
    const access = request.is404 ? 'read' : request.routeOptions.config.access!;
    const result = admission.admit(
      request.headers.authorization,
      scope,
      access,
      request.is404 ? 'peek' : 'count',
    );
    return result instanceof Promise
      ? result.then((r) => answer(request, reply, r))
      : answer(request, reply, result);
  };

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let outcome: boolean | Promise<boolean>;
    try {
      const pending = freshness.check();
      outcome = pending ? pending.then(() => decide(request, reply)) : decide(request, reply);
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

/** Un-counts the request's hit (a 304) and corrects the remaining-requests header. */
export function refundRate(services: AppServices, request: FastifyRequest, reply: FastifyReply): void {
  const rate = request.rate;
  const hit = rate?.hit;
  if (!rate || !hit) return;
  // The in-memory limiter refunds at once; the Redis one in one round trip we need not wait for.
  services.limiter.refund(hit, rate.policy).catch((err: unknown) => {
    request.log.warn({ err }, 'rate-limit refund failed');
  });
  // Usage follows the limiter: the request is taken off the hour that counted it.
  services.usageMeter.refunded(hit.keyId, hit.scope, hit.atMs);
  reply.header('x-ratelimit-remaining', Math.min(rate.policy.limit, rate.remaining + 1));
  request.rate = null;
}

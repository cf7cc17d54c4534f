import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { adminGuard } from '../admin/import-route.ts';
import { sendError } from '../error-body.ts';
import type { RouteStats, RouteStatsTable } from './route-stats.ts';
import type { ServiceMetrics } from './service-metrics.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's request counters (route-stats.ts), resolved when the route is registered. */
    routeStats?: RouteStats;
  }
  interface FastifyInstance {
    /** The service's metrics (service-metrics.ts); main/server.ts hands it the delivery worker's counts. */
    metrics: ServiceMetrics;
  }
}

export const METRICS_PATH = '/metrics';

export const METRICS_DISABLED_MESSAGE =
  'Metrics are served only to the operator: they are switched on by setting PURERANK_ADMIN_TOKEN ' +
  '(at least 32 characters) and restarting, and read with "Authorization: Bearer <that token>".';

/**
 * Counts every answer Fastify gives into its route's counters: call before any route or plugin is
 * registered, so every route (and every variant's 404) gets the hooks. The fast path counts its own
 * answers into the same counters (fast-path.ts).
 */
export function countRequests(app: FastifyInstance, routes: RouteStatsTable): void {
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    // Resolved once here and carried in the route's config (Fastify copies it into the route's
    // context after the onRoute hooks), so a request finds its counters without a lookup.
    route.config = { ...route.config, routeStats: routes.forRoute(method, route.url) };
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    // Unknown paths share one label per variant: a flood of random URLs makes no new series.
    const stats = request.is404
      ? routes.unmatched(request.url)
      : (request.routeOptions.config.routeStats ?? routes.unmatched(request.url));
    stats.record(reply.statusCode, reply.elapsedTime);
    done();
  });
}

/**
 * GET /metrics: the Prometheus text exposition, for the operator only. With PURERANK_ADMIN_TOKEN set
 * it takes `Authorization: Bearer <token>` exactly as the operator API does (else 401
 * `invalid_api_key`); without it, 404 `not_found` saying how to switch it on. Never cached, and
 * outside both variants: no API key, no rate limit, no usage.
 */
export function metricsRoute(app: FastifyInstance, metrics: ServiceMetrics, adminToken: string | null): void {
  app.decorate('metrics', metrics);
  const noStore = (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('cache-control', 'no-store');
    done();
  };
  if (!adminToken) {
    app.get(METRICS_PATH, { onRequest: noStore }, async (request, reply) =>
      sendError(request, reply, 'not_found', METRICS_DISABLED_MESSAGE),
    );
    return;
  }
  app.get(METRICS_PATH, { onRequest: [noStore, adminGuard(adminToken)] }, async (request, reply) => {
    let text: string;
    try {
      text = await metrics.render();
    } catch {
      // Under `serve --workers N` the aggregate comes from the primary (cluster-metrics.ts).
      return sendError(
        request,
        reply,
        'service_unavailable',
        "The other worker processes' metrics did not arrive in time; scrape again.",
      );
    }
    return reply.type(metrics.contentType).send(text);
  });
}

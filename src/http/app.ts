import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import './fastify-decorations.ts';
import './request-context.ts';
import '../core/validation/formats.ts';
import { checkReadiness, sharedReadiness } from '../core/health/readiness.ts';
import { adminDisabled } from './admin/disabled.ts';
import { ADMIN_PREFIX, adminApi } from './admin/index.ts';
import { AdmissionControl } from './admission.ts';
import { docsRoutes } from './docs/docs-routes.ts';
import { llmsTxtRoute } from './docs/llms-txt.ts';
import { sendError } from './error-body.ts';
import { notFoundHandler, registerErrorHandling } from './errors.ts';
import { createFastPath } from './fast-path.ts';
import { createFrontDoor } from './front-door.ts';
import { refundRate } from './guard.ts';
import { registerIntegerParams } from './integer-params.ts';
import { registerStrictJsonBodies } from './json-body.ts';
import { mcpEndpoint } from './mcp/index.ts';
import { countRequests, metricsRoute } from './metrics/metrics-route.ts';
import { RouteStatsTable } from './metrics/route-stats.ts';
import { createServiceMetrics } from './metrics/service-metrics.ts';
import { refuseNulStrings } from './nul-strings.ts';
import { OpenApiCollector } from './openapi/build-document.ts';
import { CONSOLE_PAGES } from './pages/console/index.ts';
import { DASHBOARD_PAGES } from './pages/dashboard/index.ts';
import { pages } from './pages/index.ts';
import { answerClientError } from './protocol-errors.ts';
import { requestIdOf } from './request-id.ts';
import { requestLogger } from './request-logger.ts';
import { ResponseCache } from './response-cache.ts';
import { RouteTable } from './route-table.ts';
import type { AppServices } from './services.ts';
import { ErrorBodySchema } from './shared-schemas.ts';
import { refuseUndeclaredQueries } from './strict-query.ts';
import { rulesA, VARIANT_A_PREFIX, variantA } from './variant-a/index.ts';
import { rulesB, VARIANT_B_PREFIX, variantB } from './variant-b/index.ts';
import type { VariantContext, VariantRoutes } from './variant-context.ts';

export interface AppOptions {
  /** pino logger options, or false for none (tests). */
  logger?: boolean | { level: string };
  /** Absolute base URL for the OpenAPI `servers` entry; default: relative, so the docs work wherever served. */
  publicUrl?: string;
  /** More routes behind a variant's guard (tests declare probe routes this way). */
  extraRoutes?: { a?: VariantRoutes; b?: VariantRoutes };
}

const VERSION = '1.0.0';

/** Exactly which answers carry the rate-limit headers (guard.ts, fast-path.ts). */
const RATE_HEADERS_TEXT =
  '`X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` are on every answer to a valid ' +
  'key (successes, 304s, and 400, 403, 404 and 429 errors); a 401, and an error the server gives before ' +
  'reading the key (408, 431, 503), carries none. A cached read answers with an `ETag`; `If-None-Match` ' +
  'with it gives a 304, which is not counted. 400s, and 404s of a known route, are counted.';

/** Builds the whole HTTP surface without listening (tests use inject(); main/serve listens). */
export async function buildApp(services: AppServices, opts: AppOptions = {}): Promise<FastifyInstance> {
  // Bodies rendered from the catalog alone stay while its content does (response-cache.ts).
  const cache = new ResponseCache(services.catalog);
  const admission = new AdmissionControl(
    services.auth,
    services.limiter,
    { a: rulesA(services.config), b: rulesB(services.config) },
    { clock: services.clock, meter: services.usageMeter },
  );
  // Requests per route, counted where they are answered (both paths) and read at scrape time.
  const routeStats = new RouteStatsTable();
  const metrics = createServiceMetrics({
    routes: routeStats,
    decisions: admission.decisions,
    cache,
    coa: services.coa,
    outboxLag: (limit) => services.store.deliveries.outboxLag(limit),
    nowMs: () => services.clock.now(),
  });
  // Cached reads by known keys skip the framework (decisions 0011, 0018); the rest goes to Fastify.
  const fast = createFastPath({
    freshness: services.freshness,
    clock: services.clock,
    admission,
    cache,
    routeStats,
  });
  // Every declared route, so a 404 can say what the path does take and where it exists instead.
  const routes = new RouteTable();
  const notFound = notFoundHandler(routes, [
    { prefix: VARIANT_A_PREFIX, other: VARIANT_B_PREFIX, otherName: 'Variant B' },
    { prefix: VARIANT_B_PREFIX, other: VARIANT_A_PREFIX, otherName: 'Variant A' },
  ]);
  const ctx: VariantContext = { services, cache, admission, fast, notFound };
  // Protocol rules every request meets first: timeouts, Host, bodies nobody reads (decision 0017).
  const door = createFrontDoor();
  const app = Fastify({
    serverFactory: (handler) =>
      createServer((req, res) => {
        if (door.answers(req, res)) return;
        if (!(services.config.fastPath && fast.handle(req, res, handler))) handler(req, res);
      }),
    logger: opts.logger ?? false,
    logController: new LogController({
      disableRequestLogging: !services.config.logRequests,
      requestIdLogLabel: 'request_id',
    }),
    // A well-formed incoming X-Request-Id (a proxy's or the client's) is the id; else a fresh one.
    genReqId: requestIdOf,
    // Every line about a request carries its id; the child logger that binds it is built only
    // when the request logs (request-logger.ts), and with no logger (tests) not at all.
    childLoggerFactory: opts.logger ? requestLogger : (logger) => logger,
    // Path params are matched raw and decoded by the router; allow long batch numbers.
    routerOptions: { maxParamLength: 600, ignoreTrailingSlash: false },
    ajv: {
      customOptions: { coerceTypes: true, removeAdditional: false, useDefaults: true, allErrors: false },
    },
    return503OnClosing: true,
    // The client's address behind a proxy (sign-in throttling per address); nobody is trusted unless configured.
    trustProxy: trustedProxies(services.config.trustProxy),
    // What Node's HTTP parser refuses gets the documented error body too (decision 0017).
    clientErrorHandler: answerClientError,
    // Errors the router raises before any route runs (bad percent-encoding, over-long parameters)
    // get the documented body too, without echoing the URL back.
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id);
      const message =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path parameter is too long.'
          : 'The request URL is malformed.';
      return sendError(request, reply, 'invalid_parameter', message);
    },
  });

  // Set up front (not in onSend) so every response, errors included, carries it at no extra hook cost.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Before any route: every route registered from here on gets its counters (metrics/).
  countRequests(app, routeStats);
  app.decorate('refundRate', (request, reply) => refundRate(services, request, reply));
  registerErrorHandling(app, notFound);
  routes.attach(app);
  door.install(app, services.config);
  // Before the OpenAPI collectors and the variants: both see the strict querystring schemas.
  refuseUndeclaredQueries(app, [VARIANT_A_PREFIX, VARIANT_B_PREFIX]);
  registerIntegerParams(app);
  registerStrictJsonBodies(app);
  refuseNulStrings(app);
  app.addSchema(ErrorBodySchema);

  // Before the server closes: from then on Fastify answers (503 while closing).
  app.addHook('preClose', async () => fast.close());
  app.decorate('fastPath', fast.stats);
  services.freshness.onChange((next, prev) => {
    if (next.keysVersion !== prev.keysVersion) {
      services.auth.invalidate();
      admission.invalidateKeys();
    }
    if (next.dataVersion !== prev.dataVersion) {
      cache.dataChanged();
      services.catalog.prefetch(next);
    }
  });

  const base = opts.publicUrl ?? '';
  const docA = new OpenApiCollector(VARIANT_A_PREFIX);
  docA.attach(app);
  const docB = new OpenApiCollector(VARIANT_B_PREFIX);
  docB.attach(app);
  const docAdmin = new OpenApiCollector(ADMIN_PREFIX);
  docAdmin.attach(app);

  await app.register(variantA(ctx, opts.extraRoutes?.a), { prefix: VARIANT_A_PREFIX });
  await app.register(variantB(ctx, opts.extraRoutes?.b), { prefix: VARIANT_B_PREFIX });
  if (services.config.adminToken)
    await app.register(adminApi(services, services.config.adminToken), { prefix: ADMIN_PREFIX });
  else await app.register(adminDisabled, { prefix: ADMIN_PREFIX });

  const specB = docB.build(
    {
      title: 'PureRank API — Variant B',
      version: VERSION,
      description:
        'Variant B of the PureRank interface: every success is `{data, data_updated_at}`. Rate limit: 1,000 ' +
        'requests per key per rolling 24 hours (429 with Retry-After). ' +
        RATE_HEADERS_TEXT +
        ' Errors: `{error:{code,message,status,request_id}}`.',
      serverUrl: `${base}${VARIANT_B_PREFIX}`,
      rateLimited: true,
    },
    'bearer',
  );
  const specA = docA.build(
    {
      title: 'PureRank API — Variant A',
      version: VERSION,
      description:
        'Variant A of the PureRank interface: snake_case; lists are `{data, total[, page]}`, details at top level. ' +
        'Rate limit: 10,000 requests per key per UTC hour on Enterprise. ' +
        RATE_HEADERS_TEXT +
        ' Errors: `{error:{code,message,status,request_id}}`.',
      serverUrl: `${base}${VARIANT_A_PREFIX}`,
      rateLimited: true,
    },
    'bearer',
  );
  const specs = [
    { name: 'Variant A (/v1)', url: `${VARIANT_A_PREFIX}/openapi.json` },
    { name: 'Variant B (/api/v1)', url: `${VARIANT_B_PREFIX}/openapi.json` },
  ];
  app.get(`${VARIANT_A_PREFIX}/openapi.json`, async () => specA);
  app.get(`${VARIANT_B_PREFIX}/openapi.json`, async () => specB);
  if (services.config.adminToken) {
    const specAdmin = docAdmin.build(
      {
        title: 'PureRank operator API',
        version: VERSION,
        description: 'For operators. Admin token.',
        serverUrl: `${base}${ADMIN_PREFIX}`,
      },
      'admin',
    );
    app.get(`${ADMIN_PREFIX}/openapi.json`, async () => specAdmin);
    specs.push({ name: 'Operator API (/admin/v1)', url: `${ADMIN_PREFIX}/openapi.json` });
  }
  await app.register(docsRoutes(specs));
  // MCP over Streamable HTTP, Variant A's keys and limits (mcp/, docs/mcp.md), and its signpost.
  await app.register(mcpEndpoint(ctx));
  llmsTxtRoute(app);
  await app.register(pages(services, { dashboard: DASHBOARD_PAGES, console: CONSOLE_PAGES }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  // For the operator's Prometheus: the admin token, never cached, never rate-limited (metrics/).
  metricsRoute(app, metrics, services.config.adminToken);
  // For load balancers: 503 while the database (or Redis, when the limits are shared) does not
  // answer, so traffic goes to instances that can serve it; never cached by HTTP. Concurrent calls
  // share one check and its result is reused for 250 ms: its cost stays bounded however many call.
  const limiter = services.limiter;
  const readiness = sharedReadiness(() =>
    checkReadiness({
      database: () => services.store.state.read(),
      ...(limiter.ping ? { redis: () => limiter.ping!() } : {}),
    }),
  );
  app.get('/readyz', async (request, reply) => {
    const r = await readiness();
    reply.header('cache-control', 'no-store');
    if (r.ready) return { status: 'ready', checks: r.checks };
    const down = Object.entries(r.checks)
      .filter(([, state]) => state === 'unreachable')
      .map(([name]) => (name === 'database' ? 'the database' : 'Redis'));
    reply.header('retry-after', '5');
    return sendError(
      request,
      reply,
      'service_unavailable',
      `Not ready: ${down.join(' and ')} did not answer within 1 s.`,
    );
  });
  app.get('/', async (_req, reply) => reply.redirect('/docs'));
  return app;
}

/**
 * Fastify's form of PURERANK_TRUST_PROXY: false, addresses, or for a hop count the function that
 * trusts the first n hops (what a number means to proxy-addr; Fastify's types take no number).
 */
function trustedProxies(
  t: false | number | string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof t === 'number') return (_address, hop) => hop < t;
  return t;
}

import type { FastifyInstance, RouteOptions } from 'fastify';

interface QuerySchema {
  type?: string;
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
}

/**
 * Query parameters a route does not declare are a 400 naming them, never silently ignored: a
 * client sending Variant A's `per_page` to Variant B (whose paging is `limit`/`offset`) would
 * otherwise get a full page and no hint. Every route of the given prefixes that declares
 * `config.access` gets `additionalProperties: false` on its querystring schema, or an empty one
 * when it declares none (decision 0017, "Unknown query parameters"). Register before any route
 * and before the OpenAPI collectors, so the documents and the fast path see the same schema.
 */
export function refuseUndeclaredQueries(app: FastifyInstance, prefixes: readonly string[]): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.access === undefined) return;
    if (!prefixes.some((p) => route.url === p || route.url.startsWith(`${p}/`))) return;
    route.schema ??= {};
    const schema = route.schema;
    const declared = (schema.querystring ?? { type: 'object', properties: {} }) as QuerySchema;
    schema.querystring = { ...declared, additionalProperties: false };
  });
}

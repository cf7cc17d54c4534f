import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorBodySchema } from '../shared-schemas.ts';

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  /** The variants count requests and say so in headers; the operator API does not. */
  rateLimited?: boolean;
}

const rateHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/**
 * The response headers of the public variants, written once and referenced from every operation
 * (guard.ts setRateHeaders, conditional.ts, the fast path). A 401 carries none of them.
 */
const HEADERS = {
  ETag: {
    description: 'Identifies this body; send it back as `If-None-Match` to get a 304 while it holds.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': rateHeader("Requests the key may make in the variant's window."),
  'X-RateLimit-Remaining': rateHeader('Requests left in the window after this one.'),
  'X-RateLimit-Reset': rateHeader('When the window frees a request, Unix time in seconds.'),
  'Retry-After': rateHeader('Seconds until a request will be admitted again.'),
};
const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE = {
  'X-RateLimit-Limit': ref('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('X-RateLimit-Reset'),
};
/** Statuses that come after the key was accepted, so they carry the rate-limit headers. */
const RATED_STATUSES = new Set(['200', '201', '204', '400', '403', '404', '409', '429']);

interface RouteSchema {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  params?: TSchema;
  querystring?: TSchema;
  headers?: TSchema;
  body?: TSchema;
  /** A multipart form the route reads itself; documented as the request body. */
  multipartBody?: TSchema;
  consumes?: string[];
  /** The route also takes no body (an optional body, e.g. rotate_secret's). */
  bodyOptional?: boolean;
  response?: Record<number, TSchema>;
}

/**
 * Collects the routes registered under a prefix (with the very schemas Fastify validates them
 * with) and writes an OpenAPI 3.1 document. TypeBox schemas are JSON Schema 2020-12, which is
 * what OpenAPI 3.1 speaks, so they go in as they are; `$id`-named schemas become components.
 */
export class OpenApiCollector {
  private readonly routes: { method: string; url: string; schema: RouteSchema; cachedRead: boolean }[] = [];

  constructor(private readonly prefix: string) {}

  /** Call before the routes are registered. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.url.startsWith(this.prefix) || !route.schema) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const m of methods) {
        if (m === 'HEAD') continue;
        this.routes.push({
          method: m.toLowerCase(),
          url: route.url,
          schema: route.schema as RouteSchema,
          cachedRead: m === 'GET' && Boolean(route.config?.cachedRead || route.config?.conditional),
        });
      }
    });
  }

  build(info: ApiInfo, security: 'bearer' | 'admin'): Record<string, unknown> {
    const components: Record<string, unknown> = { ErrorBody: strip(ErrorBodySchema) };
    const lift = (schema: TSchema): unknown => {
      const id = (schema as { $id?: string }).$id;
      if (id) {
        components[id] = strip(schema);
        return { $ref: `#/components/schemas/${id}` };
      }
      return rewriteRefs(schema);
    };
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const path = r.url.slice(this.prefix.length).replace(/:([A-Za-z0-9_]+)/g, '{$1}') || '/';
      const s = r.schema;
      const parameters = [
        ...paramList(s.params, 'path'),
        ...paramList(s.querystring, 'query'),
        ...paramList(s.headers, 'header'),
      ];
      if (r.cachedRead) parameters.push(IF_NONE_MATCH);
      const responses: Record<string, Record<string, unknown>> = {};
      for (const [status, schema] of Object.entries(s.response ?? {})) {
        const description =
          (schema as { description?: string }).description ?? (status === '200' ? 'Success' : 'Error');
        // A 204 has no body: documented without content.
        responses[status] =
          status === '204'
            ? { description }
            : { description, content: { 'application/json': { schema: lift(schema) } } };
      }
      const consumes = s.consumes ?? ['application/json'];
      const body = s.body ?? s.multipartBody;
      if (body) {
        // Every route that takes a body has a size limit and a media type (errors.ts).
        responses['413'] ??= errorResponse(
          'The request body is larger than this endpoint accepts (`file_too_large`).',
        );
        responses['415'] ??= errorResponse(
          `The body is not ${consumes.join(' or ')}, or has no Content-Type (\`unsupported_media_type\`).`,
        );
      }
      if (r.cachedRead) {
        responses['304'] = {
          description:
            'Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota.',
        };
      }
      if (info.rateLimited) addHeaders(responses, r.cachedRead);
      const op: Record<string, unknown> = {
        operationId: s.operationId,
        summary: s.summary,
        description: s.description,
        tags: s.tags,
        parameters,
        responses,
      };
      if (body) {
        op.requestBody = {
          required: s.bodyOptional !== true,
          content: Object.fromEntries(consumes.map((c) => [c, { schema: lift(body) }])),
        };
      }
      paths[path] ??= {};
      paths[path][r.method] = op;
    }
    return {
      openapi: '3.1.0',
      info: { title: info.title, version: info.version, description: info.description },
      servers: [{ url: info.serverUrl }],
      security: [{ [security]: [] }],
      paths,
      components: {
        schemas: components,
        ...(info.rateLimited ? { headers: HEADERS } : {}),
        securitySchemes: {
          [security]: {
            type: 'http',
            scheme: 'bearer',
            description:
              security === 'bearer' ? 'An API key: `prk_live_` + 32 characters.' : 'PURERANK_ADMIN_TOKEN.',
          },
        },
      },
    };
  }
}

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted).',
  schema: { type: 'string' },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The headers each status carries: rate-limit numbers past the key check, ETag on cached bodies. */
function addHeaders(responses: Record<string, Record<string, unknown>>, cachedRead: boolean): void {
  for (const [status, response] of Object.entries(responses)) {
    const headers: Record<string, unknown> = {};
    if (RATED_STATUSES.has(status) || status === '304') Object.assign(headers, RATE);
    if ((status === '200' || status === '304') && cachedRead) headers.ETag = ref('ETag');
    if (status === '429') headers['Retry-After'] = ref('Retry-After');
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
}

function paramList(schema: TSchema | undefined, where: 'path' | 'query' | 'header'): unknown[] {
  const props = (schema as { properties?: Record<string, TSchema> } | undefined)?.properties;
  if (!props) return [];
  const required = new Set((schema as { required?: string[] }).required ?? []);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = strip(s) as { description?: string; default?: unknown };
    // A parameter with a default is optional to the caller, though the handler's type has it always.
    const needed = where === 'path' || (required.has(name) && rest.default === undefined);
    return { name, in: where, required: needed, description, schema: rest };
  });
}

/** Drops TypeBox's symbol keys and $id; turns TypeBox `$ref: 'X'` into component refs. */
function strip(schema: TSchema): unknown {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  return rewriteRefs(rest);
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      out[k] =
        k === '$ref' && typeof v === 'string' && !v.startsWith('#')
          ? `#/components/schemas/${v}`
          : rewriteRefs(v);
    }
    return out;
  }
  return node;
}

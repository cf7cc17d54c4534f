import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorBodySchema } from '../shared-schemas.ts';

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
}

interface RouteSchema {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  params?: TSchema;
  querystring?: TSchema;
  headers?: TSchema;
  body?: TSchema;
  consumes?: string[];
  response?: Record<number, TSchema>;
}

/**
 * Collects the routes registered under a prefix (with the very schemas Fastify validates them
 * with) and writes an OpenAPI 3.1 document. TypeBox schemas are JSON Schema 2020-12, which is
 * what OpenAPI 3.1 speaks, so they go in as they are; `$id`-named schemas become components.
 */
export class OpenApiCollector {
  private readonly routes: { method: string; url: string; schema: RouteSchema }[] = [];

  constructor(private readonly prefix: string) {}

  /** Call before the routes are registered. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.url.startsWith(this.prefix) || !route.schema) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const m of methods) {
        if (m === 'HEAD') continue;
        this.routes.push({ method: m.toLowerCase(), url: route.url, schema: route.schema as RouteSchema });
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
      const responses: Record<string, unknown> = {};
      for (const [status, schema] of Object.entries(s.response ?? {})) {
        const description =
          (schema as { description?: string }).description ?? (status === '200' ? 'Success' : 'Error');
        responses[status] = { description, content: { 'application/json': { schema: lift(schema) } } };
      }
      const op: Record<string, unknown> = {
        operationId: s.operationId,
        summary: s.summary,
        description: s.description,
        tags: s.tags,
        parameters,
        responses,
      };
      if (s.body) {
        op.requestBody = {
          required: true,
          content: Object.fromEntries(
            (s.consumes ?? ['application/json']).map((c) => [c, { schema: lift(s.body!) }]),
          ),
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

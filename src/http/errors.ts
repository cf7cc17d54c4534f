import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../core/errors.ts';
import { isSlug } from '../core/import/records.ts';
import { sendError } from './error-body.ts';
import { INTERNAL_MESSAGE } from './error-status.ts';
import type { RouteTable } from './route-table.ts';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const PHRASES: Record<string, (p: Record<string, unknown>) => string> = {
  type: (p) =>
    `must be ${p.type === 'integer' ? 'an integer' : p.type === 'number' ? 'a number' : `of type ${p.type}`}.`,
  minimum: (p) => `must be at least ${p.limit}.`,
  maximum: (p) => `must be at most ${p.limit}.`,
  minLength: (p) => (p.limit === 1 ? 'must not be empty.' : `must be at least ${p.limit} characters long.`),
  maxLength: (p) => `must be at most ${p.limit} characters long.`,
  pattern: () => 'has an invalid format.',
  format: (p) =>
    p.format === 'date-time'
      ? 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-20T00:00:00Z.'
      : `must be a valid ${p.format}.`,
  enum: (p) => `must be one of ${(p.allowedValues as unknown[]).join(', ')}.`,
};

/** "a", "a and b", "a, b and c". */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The query parameters a route declares, for "this endpoint takes …". */
function declaredQuery(request: FastifyRequest): string[] {
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, unknown> }
    | undefined;
  return Object.keys(schema?.properties ?? {});
}

/** "Parameter 'limit' must be an integer." from Fastify's validation error. */
function describeValidation(err: FastifyError, request: FastifyRequest): string {
  const issue = (err.validation?.[0] ?? null) as AjvIssue | null;
  if (!issue) return 'The request is not valid.';
  const context = String(err.validationContext ?? 'request');
  if (context === 'body' && request.body === undefined) {
    return 'This endpoint needs a JSON body (Content-Type: application/json).';
  }
  const parameter =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty)
      : issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || context;
  if (issue.keyword === 'required') return `Parameter '${parameter}' is required.`;
  if (issue.keyword === 'additionalProperties') {
    const extra = String(issue.params.additionalProperty);
    if (context !== 'querystring') return `Parameter '${extra}' is not recognised.`;
    // Name what the endpoint does take: the commonest cause is the other variant's parameter.
    const takes = declaredQuery(request);
    const tail =
      takes.length === 0
        ? 'this endpoint takes no query parameters'
        : `this endpoint takes ${listWords(takes)}`;
    return `Parameter '${extra}' is not recognised; ${tail}.`;
  }
  // A repeated query parameter arrives as an array: say so, as integer parameters do.
  if (
    issue.keyword === 'type' &&
    context === 'querystring' &&
    Array.isArray((request.query as Record<string, unknown> | undefined)?.[parameter])
  ) {
    return `Parameter '${parameter}' must be given only once.`;
  }
  const phrase =
    PHRASES[issue.keyword]?.(issue.params) ?? `is not valid (${issue.message ?? issue.keyword}).`;
  return `Parameter '${parameter}' ${phrase}`;
}

/** The media types a route's body may have: its declared `consumes`, else JSON. */
function acceptedTypes(request: FastifyRequest): string[] {
  return request.routeOptions.schema?.consumes ?? ['application/json'];
}

/** 415, naming what the endpoint accepts (and that the header was missing, when it was). */
export function unsupportedMediaType(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const accepted = listWords(acceptedTypes(request));
  const message =
    request.headers['content-type'] === undefined
      ? `The request has a body but no Content-Type header; this endpoint accepts ${accepted}.`
      : `This endpoint does not accept that Content-Type; send ${accepted}.`;
  return sendError(request, reply, 'unsupported_media_type', message);
}

/** The core says "Vendor 'BPC-157' does not exist."; slugs are lower case, so say that too. */
function withSlugHint(request: FastifyRequest, message: string): string {
  const slug = (request.params as Record<string, unknown> | undefined)?.slug;
  if (typeof slug !== 'string' || slug === slug.toLowerCase()) return message;
  // Only a slug is worth suggesting: "' OR 1=1--" lower-cased is not one.
  const lower = slug.toLowerCase();
  return isSlug(lower) ? `${message} Slugs are lower-case: try '${lower}'.` : message;
}

const JSON_SYNTAX = new Set(['FST_ERR_CTP_INVALID_JSON_BODY']);

/**
 * One error handler for the whole service: domain errors map through the status table, request
 * errors become 400 invalid_parameter naming the parameter, and anything else is a 500 whose
 * message never shows internals (the log gets the detail, keyed by the request id).
 */
export function registerErrorHandling(
  app: FastifyInstance,
  notFound: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
): void {
  app.setErrorHandler(
    (err: FastifyError | DomainError | Error, request: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof DomainError) {
        const retryAfter = err.details?.retryAfterSeconds;
        if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
        const message = err.code === 'not_found' ? withSlugHint(request, err.message) : err.message;
        return sendError(request, reply, err.code, message);
      }
      const fe = err as FastifyError;
      if (fe.validation)
        return sendError(request, reply, 'invalid_parameter', describeValidation(fe, request));
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(
          request,
          reply,
          'file_too_large',
          'The request body is larger than this endpoint accepts.',
        );
      }
      if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return unsupportedMediaType(request, reply);
      const isJsonSyntax = JSON_SYNTAX.has(fe.code) || (err instanceof SyntaxError && fe.statusCode === 400);
      if (isJsonSyntax) {
        // A JSON body sent to an endpoint that takes something else (the import takes JSON Lines).
        if (!acceptedTypes(request).includes('application/json')) return unsupportedMediaType(request, reply);
        return sendError(request, reply, 'invalid_parameter', 'The request body is not valid JSON.');
      }
      if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
        // Framework-level client errors (bad headers, a body shorter than announced): say what, not how.
        return sendError(request, reply, 'invalid_parameter', 'The request is malformed.', 400);
      }
      request.log.error({ err, method: request.method, url: request.url }, 'unhandled error');
      return sendError(request, reply, 'internal_error', INTERNAL_MESSAGE);
    },
  );

  app.setNotFoundHandler(notFound);
}

/** A variant's prefix and the other variant's, for "it exists in …". */
export interface Counterpart {
  prefix: string;
  other: string;
  otherName: string;
}

/**
 * 404 for a route that does not exist; variants register it inside their prefix too. It points to
 * /docs, names the methods the path does take (decision 0017 keeps 404 rather than 405), and says
 * when the path exists under the other variant's prefix (`/api/v1/search` → `/v1/search`).
 */
export function notFoundHandler(routes: RouteTable, counterparts: readonly Counterpart[] = []) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    const said = `No route ${request.method} ${path}.`;
    const methods = routes.methodsAt(path).filter((m) => m !== 'HEAD');
    let hint = '';
    if (methods.length > 0) {
      hint = ` ${path} takes ${listWords(methods)} only.`;
    } else {
      for (const c of counterparts) {
        if (!path.startsWith(`${c.prefix}/`)) continue;
        const there = `${c.other}${path.slice(c.prefix.length)}`;
        const taken = routes.methodsAt(there);
        if (taken.includes(request.method))
          hint = ` It exists in ${c.otherName}: ${request.method} ${there}.`;
        else if (taken.length > 0) hint = ` ${there} exists in ${c.otherName}.`;
      }
    }
    return sendError(request, reply, 'not_found', `${said}${hint} Every route is listed at /docs.`);
  };
}

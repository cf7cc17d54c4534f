import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../core/errors.ts';
import { sendError } from './error-body.ts';
import { INTERNAL_MESSAGE } from './error-status.ts';

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
  enum: (p) => `must be one of ${(p.allowedValues as unknown[]).join(', ')}.`,
};

/** "Parameter 'limit' must be an integer." from Fastify's validation error. */
function describeValidation(err: FastifyError): { parameter: string; message: string } {
  const issue = (err.validation?.[0] ?? null) as AjvIssue | null;
  if (!issue) return { parameter: 'request', message: 'The request is not valid.' };
  const parameter =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty)
      : issue.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
        String(err.validationContext ?? 'request');
  if (issue.keyword === 'required') return { parameter, message: `Parameter '${parameter}' is required.` };
  if (issue.keyword === 'additionalProperties') {
    const extra = String(issue.params.additionalProperty);
    return { parameter: extra, message: `Parameter '${extra}' is not recognised.` };
  }
  const phrase =
    PHRASES[issue.keyword]?.(issue.params) ?? `is not valid (${issue.message ?? issue.keyword}).`;
  return { parameter, message: `Parameter '${parameter}' ${phrase}` };
}

/**
 * One error handler for the whole service: domain errors map through the status table, request
 * errors become 400 invalid_parameter naming the parameter, and anything else is a 500 whose
 * message never shows internals (the log gets the detail, keyed by the request id).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(
    (err: FastifyError | DomainError | Error, request: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof DomainError) return sendError(request, reply, err.code, err.message);
      const fe = err as FastifyError;
      if (fe.validation)
        return sendError(request, reply, 'invalid_parameter', describeValidation(fe).message);
      if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(
          request,
          reply,
          'file_too_large',
          'The request body is larger than this endpoint accepts.',
        );
      }
      if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return sendError(
          request,
          reply,
          'unsupported_media_type',
          'This endpoint does not accept that Content-Type.',
        );
      }
      if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
        // Framework-level client errors (malformed JSON, bad headers): say what, not how.
        return sendError(request, reply, 'invalid_parameter', 'The request is malformed.', 400);
      }
      request.log.error(
        { err, request_id: request.id, method: request.method, url: request.url },
        'unhandled error',
      );
      return sendError(request, reply, 'internal_error', INTERNAL_MESSAGE);
    },
  );

  app.setNotFoundHandler(notFoundHandler);
}

/** 404 for a route that does not exist; variants register it inside their prefix too. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  return sendError(request, reply, 'not_found', `No route ${request.method} ${path.slice(0, 200)}.`);
}

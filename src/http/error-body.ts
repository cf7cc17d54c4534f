import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, STATUS_OF } from './error-status.ts';

export interface ErrorBody {
  error: { code: string; message: string; status: number; request_id: string };
}

/** The documented error body as JSON text; `status` always equals the HTTP status. */
export function errorBodyText(code: ErrorCode, message: string, status: number, requestId: string): string {
  const body: ErrorBody = { error: { code, message, status, request_id: requestId } };
  return JSON.stringify(body);
}

/** Sends the documented error body through Fastify. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  status: number = STATUS_OF[code],
): FastifyReply {
  // Every 503 says when to come back (capacity frees within seconds: an upload finishes).
  if (code === 'service_unavailable' && !reply.hasHeader('retry-after')) reply.header('retry-after', '2');
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBodyText(code, message, status, request.id));
}

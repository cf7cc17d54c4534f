import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DomainErrorCode } from '../core/errors.ts';
import { STATUS_OF } from './error-status.ts';

export interface ErrorBody {
  error: { code: string; message: string; status: number; request_id: string };
}

/** Sends the documented error body; `status` always equals the HTTP status. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: DomainErrorCode,
  message: string,
  status: number = STATUS_OF[code],
): FastifyReply {
  const body: ErrorBody = { error: { code, message, status, request_id: request.id } };
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

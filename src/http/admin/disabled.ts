import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../error-body.ts';

export const ADMIN_DISABLED_MESSAGE =
  'The operator API is disabled on this server: it is switched on by setting PURERANK_ADMIN_TOKEN ' +
  '(at least 32 characters) and restarting.';

/**
 * Stands in for the operator API when it is off (no PURERANK_ADMIN_TOKEN): every path under its
 * prefix answers 404 `not_found` saying so, rather than a 404 that reads like a mistyped path
 * (decision 0017).
 */
export async function adminDisabled(app: FastifyInstance): Promise<void> {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendError(request, reply, 'not_found', ADMIN_DISABLED_MESSAGE),
  );
}

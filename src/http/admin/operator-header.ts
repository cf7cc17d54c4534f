import type { FastifyRequest } from 'fastify';
import { DEFAULT_ACTOR } from './schemas.ts';

/**
 * Who is acting: the `X-Operator` header (validated by the route's header schema), else the
 * default. Operator use cases record it with overrides and in score-history reasons.
 */
export function actorOf(request: FastifyRequest): string {
  const given = request.headers['x-operator'];
  return typeof given === 'string' && given !== '' ? given : DEFAULT_ACTOR;
}

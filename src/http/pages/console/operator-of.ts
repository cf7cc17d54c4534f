import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../core/operator/model.ts';

/**
 * Who acts in the console: the signed-in operator's email, recorded by the operator use cases
 * like the operator API's X-Operator and the CLI's --as (with overrides, in score-history
 * reasons). The console's guard has already let only operators through; this says so again rather
 * than record a decision under no name.
 */
export function operatorOf(request: FastifyRequest): Actor {
  const s = request.signedIn;
  if (s?.user.role !== 'operator') throw new Error('a console route ran without a signed-in operator');
  return s.user.email;
}

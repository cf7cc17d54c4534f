import type { FastifyRequest } from 'fastify';
import type { Plan } from '../../../core/accounts/model.ts';
import type { User } from '../../../core/users/model.ts';

/** The signed-in member and their account: the area's guard has made sure both are there. */
export function memberOf(request: FastifyRequest): {
  user: User;
  account: { id: number; name: string; plan: Plan };
} {
  const user = request.signedIn?.user;
  if (!user?.account) throw new Error('dashboard page reached without a signed-in member');
  return { user, account: user.account };
}

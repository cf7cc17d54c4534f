import type { FastifyInstance } from 'fastify';
import type { IssuedLink, User } from '../../../core/users/model.ts';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import { adminErrors, OperatorHeaders } from '../schemas.ts';
import { strictJsonBody } from '../strict-body.ts';
import {
  AdminUser,
  AdminUserLink,
  AdminUserList,
  InviteUserBody,
  ListUsersQuery,
  UserParams,
} from '../user-schemas.ts';

export const presentUser = (u: User) => ({
  email: u.email,
  role: u.role,
  account: u.account?.name ?? null,
  plan: u.account?.plan ?? null,
  state: u.disabledAt ? ('disabled' as const) : u.hasPassword ? ('active' as const) : ('invited' as const),
  createdAt: u.createdAt,
  lastSignInAt: u.lastSignInAt,
  disabledAt: u.disabledAt,
  invitedBy: u.invitedBy,
});

const presentLink = (l: IssuedLink) => ({
  user: presentUser(l.user),
  link: l.url,
  purpose: l.purpose,
  expiresAt: l.expiresAt,
});

const NOT_FOUND = { 404: 'No user with that email (`not_found`).' };

/**
 * Users of the dashboard and the console: invitations and resets are one-time links in the
 * response (no mail server is assumed); the operator gives them to the person.
 */
export function userRoutes(app: FastifyInstance, s: AppServices): void {
  app.get<{ Querystring: ListUsersQuery }>(
    '/users',
    {
      schema: {
        operationId: 'listUsers',
        summary: 'List users',
        description: 'By email; `?account=NAME` for one account (an unknown name is 400 naming `account`).',
        tags: ['users'],
        querystring: ListUsersQuery,
        response: { 200: AdminUserList, ...adminErrors() },
      },
    },
    async (request) => {
      const { account } = request.query;
      const users = await s.identity.list(account === undefined ? {} : { account });
      return { data: users.map(presentUser) };
    },
  );

  app.post<{ Body: InviteUserBody; Headers: OperatorHeaders }>(
    '/users',
    {
      schema: {
        operationId: 'inviteUser',
        summary: 'Invite a user',
        description:
          'To an account (`owner` or `member`) or, with `account: null`, an operator. The response carries a ' +
          'one-time link (valid 72 h by default); following it sets a password and signs in. `X-Operator` is ' +
          'recorded as who invited. An email already taken is 409.',
        tags: ['users'],
        headers: OperatorHeaders,
        body: InviteUserBody,
        response: {
          201: AdminUserLink,
          ...adminErrors({ 409: 'A user with that email exists (`conflict`).' }),
        },
      },
      preValidation: strictJsonBody(),
    },
    async (request, reply) => {
      const { email, account } = request.body;
      const role = request.body.role ?? (account === null ? 'operator' : 'member');
      const link = await s.identity.invite({ email, account, role, invitedBy: actorOf(request) });
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(presentLink(link));
    },
  );

  app.post<{ Params: UserParams; Headers: OperatorHeaders }>(
    '/users/:email/reset',
    {
      schema: {
        operationId: 'resetUser',
        summary: "Issue a user's password-reset link",
        description:
          'A one-time link to set a new password (for a user who never accepted, a new invitation link). ' +
          'Earlier unused links of the user stop working; following it ends their other sessions. No body.',
        tags: ['users'],
        params: UserParams,
        headers: OperatorHeaders,
        response: {
          200: AdminUserLink,
          ...adminErrors({ ...NOT_FOUND, 409: 'The user is disabled (`conflict`).' }),
        },
      },
    },
    async (request, reply) => {
      const link = await s.identity.reset(request.params.email);
      reply.header('cache-control', 'no-store');
      return presentLink(link);
    },
  );

  app.post<{ Params: UserParams; Headers: OperatorHeaders }>(
    '/users/:email/disable',
    {
      schema: {
        operationId: 'disableUser',
        summary: 'Disable a user',
        description:
          'Their sessions end at once, their unused links stop working, and sign-in is refused. No body.',
        tags: ['users'],
        params: UserParams,
        headers: OperatorHeaders,
        response: {
          200: AdminUser,
          ...adminErrors({ ...NOT_FOUND, 409: 'Already disabled (`conflict`).' }),
        },
      },
    },
    async (request) => presentUser(await s.identity.disable(request.params.email)),
  );
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../core/errors.ts';
import { linkUrl } from '../../../core/users/links.ts';
import { type IssuedLink, MEMBER_ROLES } from '../../../core/users/model.ts';
import { type Fields, oneOf, text } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { memberOf } from './member-of.ts';

/** Email addresses are at most 254 characters (RFC 5321); the core checks the rest. */
const EMAIL_MAX = 254;

/**
 * Settings (/dashboard/settings): the account's name and plan, its members, and for owners
 * inviting (the one-time link shown once, to pass on: no mail server is assumed) and removing
 * members, through IdentityService, whose rules decide who may (a member is refused there, not
 * only by a hidden form). Sign out everywhere is the framework's POST /dashboard/sign-out-everywhere.
 */
export const settingsPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { identity, config } = ctx.services;

  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    shown: { invited?: IssuedLink; removed?: boolean } = {},
  ) => {
    const { user, account } = memberOf(request);
    const members = await identity.list({ accountId: account.id });
    return page(request, reply, 'dashboard-settings', {
      title: 'Settings',
      area: 'dashboard',
      account,
      limits: { hourly: config.limits.hourly[account.plan], daily: config.limits.daily[account.plan] },
      members,
      owner: user.role === 'owner',
      roles: MEMBER_ROLES,
      emailMax: EMAIL_MAX,
      invited: shown.invited ?? null,
      notice: shown.removed ? 'Removed: their sessions have ended.' : null,
    });
  };

  app.get<{ Querystring: Fields }>('/settings', async (request, reply) =>
    show(request, reply, { removed: text(request.query, 'removed', 5) === '1' }),
  );

  app.post<{ Body: Fields }>('/settings/members', async (request, reply) => {
    const { user } = memberOf(request);
    const role = oneOf(request.body, 'role', MEMBER_ROLES);
    const invited = await identity.inviteMember(
      user,
      text(request.body, 'email', EMAIL_MAX * 2).trim(),
      role,
    );
    // Without PURERANK_PUBLIC_URL the core's link names localhost and the configured port; the
    // owner is looking at this service under its real name, so the link they pass on uses it.
    const base = ctx.ownOrigin ?? `${request.protocol}://${request.host}`;
    // The link is in this answer only: the owner passes it on; it is stored as a hash.
    return show(request, reply, { invited: { ...invited, url: linkUrl(base, invited.token) } });
  });

  app.post<{ Params: { id: string }; Body: Fields }>(
    '/settings/members/:id/remove',
    async (request, reply) => {
      const { user } = memberOf(request);
      const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
      if (!Number.isSafeInteger(id)) throw new DomainError('not_found', 'No such member of this account.');
      await identity.removeMember(user, id);
      return reply.redirect('/dashboard/settings?removed=1', 303);
    },
  );
};

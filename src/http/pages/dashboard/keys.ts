import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { planAllows } from '../../../core/accounts/plans.ts';
import { DomainError } from '../../../core/errors.ts';
import { KEY_NAME_MAX_LENGTH } from '../../../core/keys/key-name.ts';
import { type AccountKey, ROLL_OVERLAPS, type RollOverlap } from '../../../core/keys/model.ts';
import { type Fields, oneOf, text } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { memberOf } from './member-of.ts';
import { planOffer } from './plan-offer.ts';

/** The roll's overlap choices as the form offers them (the values are the core's ROLL_OVERLAPS). */
const OVERLAP_LABELS: Record<RollOverlap, string> = {
  0: 'Now: the old key stops at once',
  3600: '1 hour',
  86400: '24 hours',
  604800: '7 days',
};
const OVERLAP_CHOICES = ROLL_OVERLAPS.map(String);

/** What a just-created or just-rolled key page shows once (never stored, never shown again). */
interface Shown {
  created?: { key: string; info: AccountKey };
  rolled?: { key: string; info: AccountKey; old: AccountKey };
  /** After a revoke's redirect: the key it revoked. */
  revokedId?: string;
}

/**
 * API keys (/dashboard/keys): the account's keys with their state; create (the key shown once, in
 * the answer to the POST itself), revoke and roll with an overlap, all through AccountKeysService,
 * the same use cases the CLI and operator API's key rules share. Keys are of use only on a plan
 * with API access (plans.ts `read`): a free account sees its plan instead of the create form, and
 * may still revoke what it has.
 */
export const keyPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { accountKeys, config } = ctx.services;

  const show = async (request: FastifyRequest, reply: FastifyReply, shown: Shown = {}) => {
    const { account } = memberOf(request);
    const api = planAllows(account.plan, 'read');
    const keys = await accountKeys.list(account.id);
    // Said only of a key of this account that is revoked: a link cannot make the page say anything else.
    const revoked = shown.revokedId
      ? keys.find((k) => k.id === shown.revokedId && k.state === 'revoked')
      : undefined;
    return page(request, reply, 'dashboard-keys', {
      title: 'API keys',
      area: 'dashboard',
      keys,
      api,
      offer: api ? null : planOffer(config, account.plan, 'read'),
      overlaps: ROLL_OVERLAPS.map((value) => ({ value, label: OVERLAP_LABELS[value] })),
      nameMax: KEY_NAME_MAX_LENGTH,
      created: shown.created ?? null,
      rolled: shown.rolled ?? null,
      notice: revoked ? `Key ${revoked.name ?? revoked.prefix} is revoked: its next request gets 401.` : null,
    });
  };

  /** A new key is of no use without API access: refused, and nothing is created. */
  const requireApi = (request: FastifyRequest): number => {
    const { account } = memberOf(request);
    if (!planAllows(account.plan, 'read'))
      throw new DomainError(
        'plan_required',
        `New API keys need API access, which the ${account.plan} plan does not include (Pro and Enterprise do).`,
      );
    return account.id;
  };

  app.get<{ Querystring: Fields }>('/keys', async (request, reply) => {
    return show(request, reply, { revokedId: text(request.query, 'revoked', 64) });
  });

  app.post<{ Body: Fields }>('/keys', async (request, reply) => {
    const accountId = requireApi(request);
    const created = await accountKeys.create(accountId, text(request.body, 'name', KEY_NAME_MAX_LENGTH * 4));
    // The answer to this POST is the only place the key is ever shown: not stored, not redirected.
    return show(request, reply, { created });
  });

  app.post<{ Params: { id: string }; Body: Fields }>('/keys/:id/revoke', async (request, reply) => {
    const { account } = memberOf(request);
    const revoked = await accountKeys.revoke(account.id, request.params.id);
    return reply.redirect(`/dashboard/keys?revoked=${encodeURIComponent(revoked.id)}`, 303);
  });

  app.post<{ Params: { id: string }; Body: Fields }>('/keys/:id/roll', async (request, reply) => {
    const accountId = requireApi(request);
    const overlap = Number(oneOf(request.body, 'overlap', OVERLAP_CHOICES)) as RollOverlap;
    const rolled = await accountKeys.roll(accountId, request.params.id, overlap);
    return show(request, reply, { rolled });
  });
};

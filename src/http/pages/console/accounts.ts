import type { FastifyInstance } from 'fastify';
import type { AccountChange } from '../../../core/accounts/change-account.ts';
import { appliedLimit, type LimitField, RATE_LIMIT_BOUNDS } from '../../../core/accounts/custom-limits.ts';
import { type Account, PLANS } from '../../../core/accounts/model.ts';
import { invalidParameter, notFound } from '../../../core/errors.ts';
import { listKeys } from '../../../core/keys/manage-keys.ts';
import type { ApiKeyInfo } from '../../../core/keys/model.ts';
import type { OperatorActionKind } from '../../../core/operator/actions.ts';
import { type Fields, oneOf, optionalText, optionalWhole } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { actionLines } from './action-lines.ts';
import { operatorOf } from './operator-of.ts';

const PER_PAGE = 50;
/** Plan changes shown on an account's page, newest first. */
const CHANGES_SHOWN = 20;
const PLAN_CHANGES: readonly OperatorActionKind[] = ['account.plan_changed'];

/** An account as the console lists it: the limits as applied (clamped, as the admin API shows). */
const view = (a: Account, keys: ApiKeyInfo[]) => ({
  name: a.name,
  plan: a.plan,
  rateLimitA: appliedLimit('rateLimitA', a.rateLimitA),
  rateLimitB: appliedLimit('rateLimitB', a.rateLimitB),
  createdAt: a.createdAt,
  liveKeys: keys.filter((k) => k.revokedAt === null).length,
  allKeys: keys.length,
});

/**
 * A limit field of the plan form, read as the CLI reads `accounts plan --rate-limit-a`: empty keeps
 * the current limit, `default` sets the plan's own, else a whole number within the bounds. Whether
 * a limit fits the plan is the use case's rule (changeAccount), not the page's.
 */
function limitOf(body: Fields, name: string, field: LimitField): number | null | undefined {
  const t = optionalText(body, name, 30);
  if (t === '') return undefined;
  if (t.toLowerCase() === 'default') return null;
  const { min, max } = RATE_LIMIT_BOUNDS[field];
  const n = optionalWhole(body, name, min, max);
  if (n === null) throw invalidParameter(name, 'is required.');
  return n;
}

/**
 * Accounts: each with its plan, limits and key count; an account's page changes its plan and
 * custom limits through Operator.updateAccount, as `purerank accounts plan` and
 * PATCH /admin/v1/accounts/{name} do (the same validation, the keys follow on their next request).
 */
export const accountPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { operator, store } = ctx.services;
  const keyDeps = { accounts: store.accounts, keys: store.keys };

  app.get<{ Querystring: Fields }>('/accounts', async (request, reply) => {
    const offset = optionalWhole(request.query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const all = (await store.accounts.list()).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const shown = all.slice(offset, offset + PER_PAGE);
    const accounts = [];
    // The operator API's key list (listKeys) per account shown: a page's worth of small reads.
    for (const a of shown) accounts.push(view(a, await listKeys(keyDeps, a.name)));
    return page(request, reply, 'console-accounts', {
      title: 'Accounts',
      area: 'console',
      accounts,
      total: all.length,
      offset,
      perPage: PER_PAGE,
    });
  });

  app.get<{ Params: { name: string }; Querystring: Fields }>('/accounts/:name', async (request, reply) => {
    const { name } = request.params;
    const account = await store.accounts.findByName(name);
    if (!account) throw notFound('Account', name);
    const keys = await listKeys(keyDeps, name);
    const changes = await operator.actions({ subject: name, kinds: PLAN_CHANGES, limit: CHANGES_SHOWN });
    const done = optionalText(request.query, 'done', 20) === 'plan';
    return page(request, reply, 'console-account', {
      title: `Account ${account.name}`,
      area: 'console',
      account: view(account, keys),
      keys,
      plans: PLANS,
      bounds: RATE_LIMIT_BOUNDS,
      changes: actionLines(changes),
      notice: done ? `Saved. Every key of ${account.name} follows on its next request.` : null,
    });
  });

  app.post<{ Params: { name: string }; Body: Fields }>('/accounts/:name/plan', async (request, reply) => {
    const { name } = request.params;
    const change: AccountChange = { plan: oneOf(request.body, 'plan', PLANS) };
    const a = limitOf(request.body, 'rateLimitA', 'rateLimitA');
    if (a !== undefined) change.rateLimitA = a;
    const b = limitOf(request.body, 'rateLimitB', 'rateLimitB');
    if (b !== undefined) change.rateLimitB = b;
    await operator.updateAccount(name, change, operatorOf(request));
    return reply.redirect(`/console/accounts/${encodeURIComponent(name)}?done=plan`, 303);
  });
};

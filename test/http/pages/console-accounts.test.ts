import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  expectCleanMarkup,
  expectPage,
  expectRedirect,
  formFields,
  noticeOf,
  type Pages,
  pages,
  type SignedInUser,
  signIn,
} from './console-fixture.ts';

/**
 * Accounts in the console: each with its plan and key count; a plan change (and custom limits)
 * through the same use case as `purerank accounts plan` and PATCH /admin/v1/accounts/{name}, with
 * the same validation, taking effect on the account's keys at their next request.
 */
describe.each(DIALECTS)('console accounts (%s)', (dialect) => {
  let ctx: TestContext;
  let p: Pages;
  let operator: SignedInUser;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    const loaded = await ctx.load([{ type: 'vendor', slug: 'alpha', name: 'Alpha Labs', location: 'USA' }]);
    expect(loaded.ok).toBe(true);
    key = await ctx.keyFor('free', 'beta-shop');
    await ctx.keyFor('free', 'beta-shop');
    await ctx.keyFor('enterprise', 'alpha-corp');
    p = pages(ctx);
    operator = await signIn(ctx, 'accounts-ops@example.com', { role: 'operator' });
  });
  afterAll(async () => ctx?.close());

  const account = async (name: string) => ctx.container.store.accounts.findByName(name);

  it('lists the accounts by name with plan and key count', async () => {
    const html = expectPage(await p.get('/console/accounts', operator));
    expectCleanMarkup(html);
    expect(html.indexOf('alpha-corp')).toBeLessThan(html.indexOf('beta-shop'));
    expect(html).toMatch(
      /href="\/console\/accounts\/beta-shop">beta-shop<\/a><\/td>\s*<td>free<\/td>\s*<td class="num">2<\/td>/,
    );
    expect(html).toMatch(
      /href="\/console\/accounts\/alpha-corp">alpha-corp<\/a><\/td>\s*<td>enterprise<\/td>\s*<td class="num">1<\/td>/,
    );
    const one = expectPage(await p.get('/console/accounts/beta-shop', operator));
    expectCleanMarkup(one);
    expect(one).toContain('2 not revoked, 2 in all');
    expect(formFields(one, '/console/accounts/beta-shop/plan')).toMatchObject({ plan: 'free' });
  });

  it('a plan change applies to the account’s keys at their next request', async () => {
    // Free has no Variant B access at all: the key is refused until the plan allows it.
    const refused = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(refused.statusCode).toBe(403);
    const form = formFields(
      expectPage(await p.get('/console/accounts/beta-shop', operator)),
      '/console/accounts/beta-shop/plan',
    );
    const res = await p.post('/console/accounts/beta-shop/plan', operator, { ...form, plan: 'pro' });
    const location = expectRedirect(res, /^\/console\/accounts\/beta-shop\?done=plan$/);
    expect((await account('beta-shop'))?.plan).toBe('pro');
    const allowed = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(allowed.statusCode).toBe(200);
    const page = expectPage(await p.get(location, operator));
    expect(noticeOf(page)).toContain('Saved');
    expect(formFields(page, '/console/accounts/beta-shop/plan')).toMatchObject({ plan: 'pro' });
    // The change is in the decision log, shown on the account's page with who made it.
    const changes = /<h2>Plan changes<\/h2>([\s\S]*)$/.exec(page)?.[1] ?? '';
    expect(changes).toContain('Plan of beta-shop: free → pro');
    expect(changes).toContain('accounts-ops@example.com');
    expect(expectPage(await p.get('/console/accounts/alpha-corp', operator))).toContain(
      'No plan change recorded yet.',
    );
  });

  it('custom limits: set, kept when left empty, back to the default with "default"', async () => {
    const url = '/console/accounts/beta-shop/plan';
    expectRedirect(
      await p.post(url, operator, { plan: 'custom', rateLimitA: '1234', rateLimitB: '777' }),
      /done=plan/,
    );
    expect(await account('beta-shop')).toMatchObject({ plan: 'custom', rateLimitA: 1234, rateLimitB: 777 });
    const res = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(res.headers['x-ratelimit-limit']).toBe('777');

    expectRedirect(
      await p.post(url, operator, { plan: 'custom', rateLimitA: '', rateLimitB: 'default' }),
      /done=plan/,
    );
    expect(await account('beta-shop')).toMatchObject({ plan: 'custom', rateLimitA: 1234, rateLimitB: null });
    const html = expectPage(await p.get('/console/accounts', operator));
    expect(html).toContain('A 1,234/h, B default');
  });

  it('the same validation as the CLI and the admin API; a refused change changes nothing', async () => {
    const before = await account('beta-shop');
    const url = '/console/accounts/beta-shop/plan';
    for (const [fields, expected] of [
      [{ plan: 'gold' }, /Parameter 'plan' must be one of free, pro, enterprise, custom/],
      [{ plan: '' }, /Parameter 'plan' is required/],
      [
        { plan: 'custom', rateLimitA: '0' },
        /Parameter 'rateLimitA' must be a whole number from 1 to 10,000,000/,
      ],
      [
        { plan: 'custom', rateLimitB: '1000001' },
        /Parameter 'rateLimitB' must be a whole number from 1 to 1,000,000/,
      ],
      [{ plan: 'custom', rateLimitA: '12abc' }, /Parameter 'rateLimitA'/],
      // The use case's rule: limits belong to the custom plan.
      [{ plan: 'pro', rateLimitA: '500' }, /rateLimitA applies to the custom plan only/],
    ] as const) {
      const res = await p.post(url, operator, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(noticeOf(res.body)).toMatch(expected);
    }
    const unknown = await p.post('/console/accounts/nobody/plan', operator, { plan: 'pro' });
    expect(unknown.statusCode).toBe(404);
    expect(await account('nobody')).toBeNull();
    expect(await account('beta-shop')).toEqual(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  expectCleanMarkup,
  expectPage,
  expectRedirect,
  noticeOf,
  type Pages,
  pages,
  type SignedInUser,
  signIn,
} from './console-fixture.ts';

/** Every console page, with the data below: what an operator reaches and nobody else does. */
const PAGES = [
  '/console/reviews',
  '/console/vendors',
  '/console/vendors?q=alpha',
  '/console/vendors/alpha',
  '/console/accounts',
  '/console/accounts/member-account',
  '/console/events',
  '/console/events?type=score.changed&vendor=alpha',
];

/** Every console form, with fields that would change something if they were carried out. */
const FORMS: [string, Record<string, string>][] = [
  ['/console/reviews/approve', { vendor: 'alpha', batch: 'AL-1' }],
  ['/console/reviews/reject', { vendor: 'alpha', batch: 'AL-1', reason: 'forged' }],
  ['/console/vendors/alpha/overrides', { field: 'coa', value: '10', reason: 'test' }],
  ['/console/vendors/alpha/overrides/sentiment/clear', { reason: 'test' }],
  ['/console/accounts/member-account/plan', { plan: 'pro' }],
];

describe.each(DIALECTS)('console: who gets in (%s)', (dialect) => {
  let ctx: TestContext;
  let p: Pages;
  let operator: SignedInUser;
  let member: SignedInUser;
  let owner: SignedInUser;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    const loaded = await ctx.load([
      { type: 'vendor', slug: 'alpha', name: 'Alpha Labs', location: 'USA' },
      {
        type: 'override',
        vendorSlug: 'alpha',
        field: 'sentiment',
        value: 70,
        reason: 'seeded',
        setBy: 'import',
      },
      {
        type: 'peptide',
        slug: 'bpc-157',
        name: 'BPC-157',
        category: 'healing',
        molecularWeight: '1419.5 g/mol',
      },
      {
        type: 'batch',
        vendorSlug: 'alpha',
        batchId: 'AL-1',
        peptideSlug: 'bpc-157',
        status: 'pending',
        submittedAt: '2026-05-30T12:00:00.000Z',
      },
    ]);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    await ctx.keyFor('free', 'member-account');
    p = pages(ctx);
    operator = await signIn(ctx, 'ops@example.com', { role: 'operator' });
    member = await signIn(ctx, 'member@example.com', { role: 'member', account: 'member-account' });
    owner = await signIn(ctx, 'owner@example.com', { role: 'owner', account: 'member-account' });
  });
  afterAll(async () => ctx?.close());

  const snapshot = async () => ({
    pending: (await ctx.container.operator.pendingBatches(10, 0)).total,
    overrides: await ctx.container.operator.listOverrides('alpha'),
    plan: (await ctx.container.store.accounts.findByName('member-account'))?.plan,
    events: (await ctx.container.operator.events({ limit: 1000 })).length,
  });

  it('an operator gets every page, with clean markup', async () => {
    for (const url of PAGES) {
      const html = expectPage(await p.get(url, operator));
      expectCleanMarkup(html);
      expect(html).toContain('ops@example.com');
      expect(html).toContain('aria-current="page"');
    }
    expectRedirect(await p.get('/console', operator), /^\/console\/reviews$/);
  });

  it('a member or an owner of an account gets 404 on every console page and form, and nothing changes', async () => {
    const before = await snapshot();
    for (const who of [member, owner]) {
      for (const url of [...PAGES, '/console']) {
        const res = await p.get(url, who);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('Alpha Labs');
      }
      for (const [url, fields] of FORMS) {
        const res = await p.post(url, who, fields);
        expect(res.statusCode, url).toBe(404);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('signed out: every page redirects to sign-in (and back here after), every form too', async () => {
    const before = await snapshot();
    for (const url of PAGES) {
      const location = expectRedirect(await p.get(url, null), /^\/dashboard\/sign-in\?next=/);
      expect(decodeURIComponent(location.split('next=')[1]!)).toBe(url);
    }
    for (const [url, fields] of FORMS) {
      expectRedirect(await p.post(url, null, fields), /^\/dashboard\/sign-in/);
    }
    // A cookie that is no session is signed out too.
    const stranger = { ...operator, cookie: 'purerank_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
    expectRedirect(await p.get('/console/reviews', stranger), /^\/dashboard\/sign-in/);
    expect(await snapshot()).toEqual(before);
  });

  it('a form without the session token, or from another site, is refused with 403 and changes nothing', async () => {
    const before = await snapshot();
    for (const [url, fields] of FORMS) {
      const missing = await p.post(url, operator, fields, { csrf: null });
      expect(missing.statusCode, url).toBe(403);
      expect(noticeOf(missing.body)).toMatch(/out of date/);
      const wrong = await p.post(url, operator, fields, { csrf: 'x'.repeat(operator.csrf.length) });
      expect(wrong.statusCode, url).toBe(403);
      const crossSite = await p.post(url, operator, fields, { origin: 'https://evil.example' });
      expect(crossSite.statusCode, url).toBe(403);
      expect(noticeOf(crossSite.body)).toMatch(/another site/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('unknown vendor, account or page: the 404 page', async () => {
    for (const url of [
      '/console/vendors/nobody',
      '/console/accounts/nobody',
      '/console/events?vendor=nobody',
      '/console/nothing-here',
    ]) {
      const res = await p.get(url, operator);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { expectError } from '../admin/helpers.ts';

/*
 * With no PURERANK_ADMIN_TOKEN the operator API is off; its paths say so instead of a 404 that
 * reads like a mistyped path (decision 0017).
 */
describe.each(DIALECTS)('operator API switched off (%s)', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect, { config: { adminToken: null } });
  });
  afterAll(async () => ctx?.close());

  it.each([
    ['GET', '/admin/v1/batches/pending?offset=99999999999999999999'],
    ['GET', '/admin/v1/events'],
    ['GET', '/admin/v1/openapi.json'],
    ['GET', '/admin/v1'],
    ['GET', '/admin/v1/'],
    ['POST', '/admin/v1/accounts'],
    ['DELETE', '/admin/v1/overrides/apex/coa'],
  ])('%s %s → 404 not_found saying the operator API is disabled', async (method, url) => {
    const res = await ctx.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const message = expectError(res, 404, 'not_found');
    expect(message).toMatch(/operator API is disabled/);
    expect(message).toContain('PURERANK_ADMIN_TOKEN');
    expect(res.headers['x-request-id']).toBe(res.json().error.request_id);
  });

  it('other unknown paths keep the usual 404, and /docs does not list the operator API', async () => {
    const res = await ctx.app.inject({ url: '/nowhere' });
    expect(expectError(res, 404, 'not_found')).toBe('No route GET /nowhere. Every route is listed at /docs.');
    const docs = await ctx.app.inject({ url: '/docs' });
    expect(docs.body).not.toContain('/admin/v1/openapi.json');
  });
});

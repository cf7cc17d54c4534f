import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { ADMIN, adminAuth, setupAdmin } from '../admin/helpers.ts';

type Admin = Awaited<ReturnType<typeof setupAdmin>>;

/**
 * U+0000 in any string a request carries is a 400 naming the parameter, on both databases alike
 * (PostgreSQL text cannot hold it: these answered 500 there, found by the fuzz suite, F4).
 */
describe.each(DIALECTS)('NUL characters in parameters and bodies (%s)', (dialect) => {
  let a: Admin;
  beforeAll(async () => {
    a = await setupAdmin(dialect);
  });
  afterAll(async () => a?.ctx.close());

  const expect400 = (
    res: { statusCode: number; json(): { error: Record<string, unknown> } },
    param: string,
  ) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(String(res.json().error.message)).toContain(`'${param}'`);
    expect(String(res.json().error.message)).toMatch(/NUL/);
  };

  it.each([
    ['GET', `${ADMIN}/vendors/a%00b`, 'slug'],
    ['GET', `${ADMIN}/overrides?vendor=a%00b`, 'vendor'],
    ['GET', `${ADMIN}/events?vendor=a%00b`, 'vendor'],
    ['GET', `${ADMIN}/accounts/x%00y/keys`, 'name'],
  ] as const)('%s %s → 400', async (method, url, param) => {
    const res = await a.ctx.app.inject({ method, url, headers: adminAuth });
    expect400(res, param);
  });

  it('a JSON body field with U+0000 → 400 naming the field; nothing is written', async () => {
    const res = await a.call('PUT', `/vendors/apex/overrides/coa`, { value: 90, reason: 'a\u0000b' });
    expect400(res, 'reason');
    const overrides = await a.call('GET', `/overrides?vendor=apex`);
    expect(overrides.json().data).toEqual([]);
  });

  it("a NUL in an unknown path is a 404 for that path, not a 400 naming the router's wildcard", async () => {
    for (const url of ['/api/v1/peptides/bpc-157/price-stats%00', '/v1/x%00y', '/nothing%00']) {
      const res = await a.ctx.app.inject({ url, headers: { authorization: `Bearer ${a.key}` } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'not_found', status: 404 });
      expect(res.body).not.toContain("'*'");
    }
  });

  it('public routes refuse it too, with the documented body', async () => {
    const res = await a.ctx.app.inject({
      url: '/api/v1/vendors/a%00b',
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect400(res, 'slug');
  });
});

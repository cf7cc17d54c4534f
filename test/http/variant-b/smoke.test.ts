import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';

describe.each(DIALECTS)('smoke (%s)', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    const r = await ctx.load([
      { type: 'vendor', slug: 'alpha', name: 'Alpha', location: 'Canada', verified: true },
      ...['coa', 'purity', 'sentiment', 'transparency', 'experience'].map((field) => ({
        type: 'override',
        vendorSlug: 'alpha',
        field,
        value: 80,
        reason: 'test',
      })),
    ]);
    expect(r.ok).toBe(true);
    key = await ctx.keyFor('enterprise');
  });
  afterAll(async () => ctx?.close());

  it('lists vendors', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.vendors[0]).toMatchObject({ slug: 'alpha', score: 80 });
    expect(body.data.total).toBe(1);
  });
});

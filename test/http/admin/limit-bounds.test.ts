import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { ADMIN, type AdminFixture, adminAuth, expectError, setupAdmin } from './helpers.ts';

/**
 * Custom limits and price rows have bounds (decision 0006 "Bounds of custom limits",
 * core/prices/bounds.ts): a value outside them is a 400 that writes nothing, by the operator API
 * and by an import alike; a limit stored before the bounds is clamped when read.
 */
describe.each(DIALECTS)('operator API: bounds of limits and prices (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const account = (name: string) => f.ctx.container.store.accounts.findByName(name);
  /** A raw JSON body, so a number JavaScript cannot hold (9007199254740993) reaches the server. */
  const raw = (method: 'POST' | 'PATCH', url: string, payload: string) =>
    f.ctx.app.inject({
      method,
      url: `${ADMIN}${url}`,
      headers: { ...adminAuth, 'content-type': 'application/json' },
      payload,
    });
  const importLines = (lines: string[]) =>
    f.ctx.app.inject({
      method: 'POST',
      url: `${ADMIN}/import`,
      headers: { ...adminAuth, 'content-type': 'application/x-ndjson' },
      payload: lines.join('\n'),
    });

  it.each([
    ['rateLimitA', '1e22'],
    ['rateLimitA', '1e300'],
    ['rateLimitA', '9007199254740993'],
    ['rateLimitA', '10000001'],
    ['rateLimitA', '2.5'],
    ['rateLimitA', '0'],
    ['rateLimitB', '1000001'],
    ['rateLimitB', '2000000000'],
  ])('POST /accounts with %s %s is 400 naming it and creates nothing', async (field, value) => {
    const res = await raw('POST', '/accounts', `{"name":"l17","plan":"custom","${field}":${value}}`);
    expect(expectError(res, 400, 'invalid_parameter')).toContain(field);
    expect(await account('l17')).toBeNull();
  });

  it('PATCH with a limit above its bound is 400 and changes nothing; the bounds themselves are accepted', async () => {
    const created = await f.call('POST', '/accounts', {
      name: 'Edge',
      plan: 'custom',
      rateLimitA: 10_000_000,
      rateLimitB: 1_000_000,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ rateLimitA: 10_000_000, rateLimitB: 1_000_000 });
    const before = await account('Edge');
    const version = f.dataVersion();
    expectError(await raw('PATCH', '/accounts/Edge', '{"rateLimitB":1e22}'), 400, 'invalid_parameter');
    expectError(
      await f.call('PATCH', '/accounts/Edge', { rateLimitA: 10_000_001 }),
      400,
      'invalid_parameter',
    );
    expect(await account('Edge')).toEqual(before);
    expect(f.dataVersion()).toBe(version);
  });

  it('an import account line with an out-of-bound limit is a bad line; nothing is written', async () => {
    const res = await importLines([
      '{"type":"account","name":"Fine Co","plan":"custom","rateLimitA":5}',
      '{"type":"account","name":"Huge Co","plan":"custom","rateLimitA":1e22}',
      '{"type":"account","name":"Ring Co","plan":"custom","rateLimitB":2000000000}',
    ]);
    expect(res.statusCode).toBe(400);
    const lines = res.json().error.lines as { line: number; message: string }[];
    expect(lines.map((l) => l.line)).toEqual([2, 3]);
    expect(lines[0]?.message).toContain('rateLimitA');
    expect(lines[1]?.message).toContain('rateLimitB');
    expect(await account('Fine Co')).toBeNull();
  });

  it('a limit stored before the bounds is clamped when read: integer headers, the applied value shown', async () => {
    await f.call('POST', '/accounts', { name: 'Legacy', plan: 'custom' });
    // Written straight to the table, as an older version could (both columns hold an int4).
    await f.ctx.container.store.kysely
      .updateTable('accounts')
      .set({ rate_limit_a: 2_000_000_000, rate_limit_b: 2_000_000_000 })
      .where('name', '=', 'Legacy')
      .execute();
    const listed = (await f.call('GET', '/accounts')).json().data as { name: string }[];
    expect(listed.find((a) => a.name === 'Legacy')).toMatchObject({
      rateLimitA: 10_000_000,
      rateLimitB: 1_000_000,
    });
    const key = (await f.call('POST', '/accounts/Legacy/keys', {})).json().key as string;
    const a = await f.ctx.app.inject({ url: '/v1/vendors', headers: bearer(key) });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.headers['x-ratelimit-limit']).toBe('10000000');
    expect(a.headers['x-ratelimit-remaining']).toBe('9999999');
    const b = await f.ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(b.headers['x-ratelimit-limit']).toBe('1000000');
    expect(b.headers['x-ratelimit-remaining']).toBe('999999');
  });

  const priceTable = async () => {
    const res = await f.publicB('/peptides/tb-500/prices');
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it.each([
    [{ vialMg: 1e-320 }, 'vialMg'],
    [{ vialMg: 0.0009 }, 'vialMg'],
    [{ vialMg: 100_001 }, 'vialMg'],
    [{ totalUsd: 1_000_001 }, 'totalUsd'],
    [{ totalUsd: -0.01 }, 'totalUsd'],
  ])('a listing row with %j is 400 naming the field; the price table is unchanged', async (bad, field) => {
    const before = (await priceTable()).body;
    const row = { peptideSlug: 'tb-500', vialMg: 2, totalUsd: 1_000_000, inStock: true, ...bad };
    const res = await f.call('POST', '/vendors/apex/listings', { rows: [row] });
    expect(expectError(res, 400, 'invalid_parameter')).toContain(field);
    expect((await priceTable()).body).toBe(before);
  });

  it('an import price line with vialMg 5e-324 is a bad line; the extreme valid row has a finite perMg', async () => {
    const line = (vialMg: string, totalUsd: string) =>
      `{"type":"price","vendorSlug":"apex","peptideSlug":"tb-500","vialMg":${vialMg},"source":"live",` +
      `"totalUsd":${totalUsd},"inStock":true,"updatedAt":"${new Date(f.ctx.clock.now()).toISOString()}"}`;
    const bad = await importLines([line('5e-324', '1000000')]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.lines).toEqual([{ line: 1, message: expect.stringContaining('vialMg') }]);

    const ok = await f.call('POST', '/vendors/apex/listings', {
      rows: [{ peptideSlug: 'tb-500', vialMg: 0.001, totalUsd: 1_000_000, inStock: true }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const rows = (await priceTable()).json().data.prices as Record<string, unknown>[];
    const extreme = rows.find((r) => r.vialMg === 0.001);
    expect(extreme?.perMg).toBe(1e9);
  });
});

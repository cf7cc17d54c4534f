import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, adminAuth, expectError, setupAdmin } from './helpers.ts';

const ONLY_CUSTOM = "rateLimitA applies to the custom plan only; plan 'enterprise' uses its own limits.";

/**
 * Per-account limits belong to the custom plan (docs/operator-api.md, "Accounts and keys"): with any
 * other plan they are a 400 that changes nothing, never an answer that shows them and a limiter
 * that ignores them; leaving custom clears them, by the API and by an import alike.
 */
describe.each(DIALECTS)('operator API: account limits are for the custom plan (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
    expect((await f.call('POST', '/accounts', { name: 'zeta', plan: 'pro' })).statusCode).toBe(201);
  });
  afterAll(async () => f?.ctx.close());

  const account = async (name: string) => f.ctx.container.store.accounts.findByName(name);
  const importFile = (lines: Record<string, unknown>[]) =>
    f.ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: { ...adminAuth, 'content-type': 'application/x-ndjson' },
      payload: lines.map((l) => JSON.stringify(l)).join('\n'),
    });

  it('PATCH {"plan":"enterprise","rateLimitA":5} is 400 invalid_parameter and changes nothing', async () => {
    const before = await account('zeta');
    const version = f.dataVersion();
    const res = await f.call('PATCH', '/accounts/zeta', { plan: 'enterprise', rateLimitA: 5 });
    expect(expectError(res, 400, 'invalid_parameter')).toBe(ONLY_CUSTOM);
    expect(await account('zeta')).toEqual(before);
    expect(f.dataVersion()).toBe(version);
    // A limits-only change applies to the plan the account has.
    expect(
      expectError(await f.call('PATCH', '/accounts/zeta', { rateLimitB: 5 }), 400, 'invalid_parameter'),
    ).toBe("rateLimitB applies to the custom plan only; plan 'pro' uses its own limits.");
    // null is the plan's own limit: allowed with any plan.
    expect(
      (await f.call('PATCH', '/accounts/zeta', { plan: 'enterprise', rateLimitA: null })).statusCode,
    ).toBe(200);
  });

  it('POST /accounts with a limit and another plan is 400 and creates nothing', async () => {
    const res = await f.call('POST', '/accounts', { name: 'Eta', plan: 'enterprise', rateLimitA: 5 });
    expect(expectError(res, 400, 'invalid_parameter')).toBe(ONLY_CUSTOM);
    expect(await account('Eta')).toBeNull();
  });

  it('moving off custom clears the limits (PATCH and import alike)', async () => {
    const custom = await f.call('PATCH', '/accounts/zeta', { plan: 'custom', rateLimitA: 5, rateLimitB: 7 });
    expect(custom.json()).toMatchObject({ plan: 'custom', rateLimitA: 5, rateLimitB: 7 });
    const off = await f.call('PATCH', '/accounts/zeta', { plan: 'pro' });
    expect(off.json()).toMatchObject({ plan: 'pro', rateLimitA: null, rateLimitB: null });

    await f.call('PATCH', '/accounts/zeta', { plan: 'custom', rateLimitA: 5, rateLimitB: 7 });
    const imported = await importFile([{ type: 'account', name: 'zeta', plan: 'enterprise' }]);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(await account('zeta')).toMatchObject({ plan: 'enterprise', rateLimitA: null, rateLimitB: null });
  });

  it('an import account line with a limit and another plan is a bad line; nothing is written', async () => {
    const before = await account('zeta');
    const res = await importFile([
      { type: 'account', name: 'New Co', plan: 'custom', rateLimitA: 9 },
      { type: 'account', name: 'zeta', plan: 'enterprise', rateLimitA: 5 },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.lines).toEqual([{ line: 2, message: `account: ${ONLY_CUSTOM.slice(0, -1)}` }]);
    expect(await account('zeta')).toEqual(before);
    expect(await account('New Co')).toBeNull();
  });
});

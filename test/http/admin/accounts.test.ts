import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, adminAuth, expectError, OWNER, setupAdmin } from './helpers.ts';

describe.each(DIALECTS)('operator API: accounts and keys (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const readB = (key: string) => f.ctx.app.inject({ url: '/api/v1/vendors/apex', headers: bearer(key) });

  describe('accounts', () => {
    it('creates an account (201), lists it by name, and refuses a taken name with 409', async () => {
      const res = await f.call('POST', '/accounts', {
        name: 'Acme Research',
        plan: 'custom',
        rateLimitB: 5000,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        name: 'Acme Research',
        plan: 'custom',
        rateLimitA: null,
        rateLimitB: 5000,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const list = (await f.call('GET', '/accounts')).json().data as { name: string }[];
      const names = list.map((a) => a.name);
      expect(names).toContain('Acme Research');
      expect(names).toEqual([...names].sort());
      expect(list.find((a) => a.name === OWNER)).toMatchObject({ plan: 'pro', rateLimitA: null });
      expect(
        expectError(
          await f.call('POST', '/accounts', { name: 'Acme Research', plan: 'pro' }),
          409,
          'conflict',
        ),
      ).toContain('Acme Research');
    });

    it.each([
      [{ plan: 'pro' }, "'name'"],
      [{ name: 'X', plan: 'gold' }, "Parameter 'plan' must be one of free, pro, enterprise, custom."],
      [{ name: '-bad', plan: 'pro' }, "Parameter 'name' has an invalid format."],
      [{ name: 'X', plan: 'pro', rateLimitA: 0 }, "Parameter 'rateLimitA' must be at least 1."],
      [{ name: 'X', plan: 'pro', limit: 5 }, "Parameter 'limit' is not recognised."],
    ])('400 for a bad account body %j', async (body, message) => {
      expect(expectError(await f.call('POST', '/accounts', body), 400, 'invalid_parameter')).toContain(
        message,
      );
    });

    it('PATCH changes the plan and takes effect on the next request of its keys', async () => {
      await f.call('POST', '/accounts', { name: 'Switcher', plan: 'enterprise' });
      const key = (await f.call('POST', '/accounts/Switcher/keys', {})).json().key as string;
      expect((await readB(key)).statusCode).toBe(200);
      const res = await f.call('PATCH', '/accounts/Switcher', { plan: 'free' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'Switcher',
        plan: 'free',
        rateLimitA: null,
        rateLimitB: null,
      });
      expectError(await readB(key), 403, 'plan_required');
      // Limits belong to the custom plan; alone they keep it; null resets one to the plan default.
      const custom = await f.call('PATCH', '/accounts/Switcher', {
        plan: 'custom',
        rateLimitA: 50,
        rateLimitB: 60,
      });
      expect(custom.json()).toMatchObject({ plan: 'custom', rateLimitA: 50, rateLimitB: 60 });
      const reset = await f.call('PATCH', '/accounts/Switcher', { rateLimitA: null });
      expect(reset.json()).toMatchObject({ plan: 'custom', rateLimitA: null, rateLimitB: 60 });
      // Leaving custom clears the limits: no other plan uses them (custom-limits.test.ts).
      const off = await f.call('PATCH', '/accounts/Switcher', { plan: 'enterprise' });
      expect(off.json()).toMatchObject({ plan: 'enterprise', rateLimitA: null, rateLimitB: null });
      expect((await readB(key)).statusCode).toBe(200);
    });

    it("the operator's account change behind PATCH (and the CLI) refuses an unknown account itself", async () => {
      // The route no longer looks the account up first: the use case must refuse, not create.
      await expect(
        f.ctx.container.operator.updateAccount('Ghost Co', { plan: 'enterprise' }, 'test'),
      ).rejects.toMatchObject({ code: 'not_found', message: "Account 'Ghost Co' does not exist." });
      await expect(
        f.ctx.container.operator.updateAccount('Ghost Co', { rateLimitB: 5 }, 'test'),
      ).rejects.toMatchObject({ code: 'not_found' });
      const names = ((await f.call('GET', '/accounts')).json().data as { name: string }[]).map((a) => a.name);
      expect(names).not.toContain('Ghost Co');
      expect(await f.ctx.container.store.accounts.findByName('Ghost Co')).toBeNull();
    });

    it('PATCH of an unknown account is 404 and creates nothing; a bad patch is 400', async () => {
      expect(
        expectError(await f.call('PATCH', '/accounts/Nobody', { plan: 'pro' }), 404, 'not_found'),
      ).toContain('Nobody');
      const names = ((await f.call('GET', '/accounts')).json().data as { name: string }[]).map((a) => a.name);
      expect(names).not.toContain('Nobody');
      expect(
        expectError(
          await f.call('PATCH', `/accounts/${encodeURIComponent(OWNER)}`, {}),
          400,
          'invalid_parameter',
        ),
      ).toContain('at least one of plan');
      expect(
        expectError(
          await f.call('PATCH', `/accounts/${encodeURIComponent(OWNER)}`, { plan: 'gold' }),
          400,
          'invalid_parameter',
        ),
      ).toContain("'plan'");
      expect(
        expectError(
          await f.call('PATCH', `/accounts/${encodeURIComponent(OWNER)}`, { rateLimitB: 'lots' }),
          400,
          'invalid_parameter',
        ),
      ).toContain("'rateLimitB'");
    });
  });

  describe('keys', () => {
    it('creates a key shown once (201), which works at once; the list never shows it', async () => {
      const res = await f.call('POST', `/accounts/${encodeURIComponent(OWNER)}/keys`, { name: 'ci' });
      expect(res.statusCode).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      const created = res.json();
      expect(created).toEqual({
        key: expect.stringMatching(/^prk_live_[A-Za-z0-9]{32}$/),
        account: OWNER,
        id: expect.stringMatching(/^key_/),
        name: 'ci',
        prefix: expect.any(String),
        createdAt: expect.any(String),
        revokedAt: null,
      });
      expect(created.key.startsWith(created.prefix)).toBe(true);
      expect((await readB(created.key)).statusCode).toBe(200);

      const list = await f.call('GET', `/accounts/${encodeURIComponent(OWNER)}/keys`);
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(created.key);
      expect(list.json().data).toContainEqual({
        id: created.id,
        name: 'ci',
        prefix: created.prefix,
        createdAt: created.createdAt,
        revokedAt: null,
      });
    });

    it('an empty body is fine; a bad label is 400; an unknown account is 404', async () => {
      const empty = await f.ctx.app.inject({
        method: 'POST',
        url: `/admin/v1/accounts/${encodeURIComponent(OWNER)}/keys`,
        headers: adminAuth,
      });
      expect(empty.statusCode).toBe(201);
      expect(empty.json().name).toBeNull();
      expect(
        expectError(
          await f.call('POST', `/accounts/${encodeURIComponent(OWNER)}/keys`, { name: '' }),
          400,
          'invalid_parameter',
        ),
      ).toContain("'name'");
      expect(
        expectError(
          await f.call('POST', `/accounts/${encodeURIComponent(OWNER)}/keys`, { label: 'x' }),
          400,
          'invalid_parameter',
        ),
      ).toContain("'label'");
      expectError(await f.call('POST', '/accounts/Nobody/keys', {}), 404, 'not_found');
      expectError(await f.call('GET', '/accounts/Nobody/keys'), 404, 'not_found');
    });

    it.each(['id', 'prefix', 'key'] as const)(
      'revokes by %s: the key is 401 from its next request',
      async (by) => {
        const created = (await f.call('POST', `/accounts/${encodeURIComponent(OWNER)}/keys`, {})).json();
        expect((await readB(created.key)).statusCode).toBe(200);
        const ref = by === 'id' ? created.id : by === 'prefix' ? created.prefix : created.key;
        const res = await f.call('POST', '/keys/revoke', { key: ref });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          id: created.id,
          name: null,
          prefix: created.prefix,
          createdAt: created.createdAt,
          revokedAt: expect.any(String),
        });
        expect(res.body).not.toContain(created.key);
        expectError(await readB(created.key), 401, 'invalid_api_key');
        // Revoking again is a conflict.
        expect(
          expectError(await f.call('POST', '/keys/revoke', { key: created.id }), 409, 'conflict'),
        ).toContain('already revoked');
        const listed = (await f.call('GET', `/accounts/${encodeURIComponent(OWNER)}/keys`)).json().data;
        expect(listed.find((k: { id: string }) => k.id === created.id).revokedAt).toBe(res.json().revokedAt);
      },
    );

    it('revoke: unknown key 404, missing or extra field 400', async () => {
      expectError(await f.call('POST', '/keys/revoke', { key: 'key_doesnotexist' }), 404, 'not_found');
      expectError(
        await f.call('POST', '/keys/revoke', { key: 'prk_live_' + 'A'.repeat(32) }),
        404,
        'not_found',
      );
      expect(expectError(await f.call('POST', '/keys/revoke', {}), 400, 'invalid_parameter')).toBe(
        "Parameter 'key' is required.",
      );
      expect(
        expectError(await f.call('POST', '/keys/revoke', { key: 'k', id: 'x' }), 400, 'invalid_parameter'),
      ).toBe("Parameter 'id' is not recognised.");
    });
  });
});

import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../src/core/validation/formats.ts';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { AdminUser, AdminUserLink, AdminUserList } from '../../../src/http/admin/user-schemas.ts';
import { T0 } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { ADMIN, type AdminFixture, expectError, OTHER, OWNER, setupAdmin } from './helpers.ts';

const LINK = /^http:\/\/127\.0\.0\.1:\d+\/dashboard\/welcome\/([A-Za-z0-9_-]{43})$/;
const client = { address: '127.0.0.1', userAgent: null };

describe.each(DIALECTS)('operator API: users (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const identity = () => f.ctx.container.identity;
  const tokenOf = (link: string): string => {
    const m = LINK.exec(link);
    expect(m, link).not.toBeNull();
    return m![1]!;
  };

  it('invites to an account (201): the user, a one-time link valid 72 h, and who invited', async () => {
    const res = await f.call(
      'POST',
      '/users',
      { email: ' Ann@Owner.test ', account: OWNER, role: 'owner' },
      { 'x-operator': 'alice' },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Value.Check(AdminUserLink, body)).toBe(true);
    expect(body).toEqual({
      user: {
        email: 'ann@owner.test',
        role: 'owner',
        account: OWNER,
        plan: 'pro',
        state: 'invited',
        createdAt: new Date(T0).toISOString(),
        lastSignInAt: null,
        disabledAt: null,
        invitedBy: 'alice',
      },
      link: expect.stringMatching(LINK),
      purpose: 'invite',
      expiresAt: new Date(T0 + 72 * HOUR_MS).toISOString(),
    });
    // The link works, once.
    const token = tokenOf(body.link);
    await identity().followLink(token, 'a long enough password', client);
    expect(await identity().inspectLink(token)).toBeNull();
    const listed = (await f.call('GET', `/users?account=${encodeURIComponent(OWNER)}`)).json();
    expect(listed.data.find((u: { email: string }) => u.email === 'ann@owner.test')).toMatchObject({
      state: 'active',
      lastSignInAt: new Date(T0).toISOString(),
    });
  });

  it('defaults: member with an account, operator without; X-Operator absent records admin-api', async () => {
    const member = await f.call('POST', '/users', { email: 'mem@owner.test', account: OWNER });
    expect(member.json().user).toMatchObject({ role: 'member', account: OWNER, invitedBy: 'admin-api' });
    const op = await f.call('POST', '/users', { email: 'op@purerank.test', account: null });
    expect(op.statusCode).toBe(201);
    expect(op.json().user).toMatchObject({ role: 'operator', account: null, plan: null });
  });

  it.each([
    [{ email: 'not an email', account: OWNER }, "Parameter 'email' must be an email address"],
    [{ email: 'x@owner.test', account: 'Nobody Inc' }, "Parameter 'account' names no account: 'Nobody Inc'"],
    [
      { email: 'x@owner.test', account: OWNER, role: 'admin' },
      "Parameter 'role' must be one of owner, member, operator.",
    ],
    [{ email: 'x@owner.test', account: OWNER, role: 'operator' }, "Parameter 'role'"],
    [{ email: 'x@owner.test', account: null, role: 'owner' }, "Parameter 'role' must be 'operator'"],
    [{ email: 'x@owner.test' }, "'account'"],
    [{ account: OWNER }, "'email'"],
    [{ email: 'x@owner.test', account: 5 }, "Parameter 'account'"],
    [{ email: 'x@owner.test', account: OWNER, admin: true }, "Parameter 'admin' is not recognised."],
    [{ email: `${'a'.repeat(400)}@owner.test`, account: OWNER }, "Parameter 'email'"],
  ])('400 invalid_parameter naming the field for %j, and nothing written', async (body, message) => {
    const before = (await f.call('GET', '/users')).json().data.length;
    expect(expectError(await f.call('POST', '/users', body), 400, 'invalid_parameter')).toContain(message);
    expect((await f.call('GET', '/users')).json().data.length).toBe(before);
  });

  it('409 for an email already taken, whatever its case', async () => {
    await f.call('POST', '/users', { email: 'dup@owner.test', account: OWNER });
    expect(
      expectError(
        await f.call('POST', '/users', { email: 'DUP@owner.test', account: OTHER }),
        409,
        'conflict',
      ),
    ).toBe("User 'dup@owner.test' already exists.");
  });

  it('lists users by email, all or one account; an unknown account is 400 naming it', async () => {
    const all = (await f.call('GET', '/users')).json();
    expect(Value.Check(AdminUserList, all)).toBe(true);
    const emails = all.data.map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort());
    expect(emails).toContain('op@purerank.test');
    const owner = (await f.call('GET', `/users?account=${encodeURIComponent(OWNER)}`)).json().data;
    expect(owner.length).toBeGreaterThan(0);
    expect(owner.every((u: { account: string }) => u.account === OWNER)).toBe(true);
    expect((await f.call('GET', `/users?account=${encodeURIComponent(OTHER)}`)).json().data).toEqual([]);
    expect(expectError(await f.call('GET', '/users?account=Nobody'), 400, 'invalid_parameter')).toContain(
      "Parameter 'account'",
    );
  });

  it('reset: a new one-time link (the earlier one stops working); unknown user 404', async () => {
    const invited = (await f.call('POST', '/users', { email: 'rst@owner.test', account: OWNER })).json();
    const res = await f.call('POST', `/users/${encodeURIComponent('RST@owner.test')}/reset`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Value.Check(AdminUserLink, body)).toBe(true);
    // Never accepted: still an invitation.
    expect(body.purpose).toBe('invite');
    expect(await identity().inspectLink(tokenOf(invited.link))).toBeNull();
    expect(await identity().inspectLink(tokenOf(body.link))).not.toBeNull();
    // Accepted, a reset is a reset.
    await identity().followLink(tokenOf(body.link), 'a long enough password', client);
    expect((await f.call('POST', '/users/rst@owner.test/reset')).json().purpose).toBe('reset');
    expect(expectError(await f.call('POST', '/users/ghost@owner.test/reset'), 404, 'not_found')).toBe(
      "User 'ghost@owner.test' does not exist.",
    );
    expect(
      expectError(await f.call('POST', '/users/not-an-email/reset'), 400, 'invalid_parameter'),
    ).toContain("Parameter 'email'");
  });

  it('disable: the user is disabled and signed out at once; twice 409; unknown 404; reset then 409', async () => {
    const invited = (await f.call('POST', '/users', { email: 'off@owner.test', account: OWNER })).json();
    const opened = await identity().followLink(tokenOf(invited.link), 'a long enough password', client);
    expect(await identity().session(opened.token)).not.toBeNull();
    const res = await f.call('POST', '/users/off@owner.test/disable');
    expect(res.statusCode, res.body).toBe(200);
    expect(Value.Check(AdminUser, res.json())).toBe(true);
    expect(res.json()).toMatchObject({
      email: 'off@owner.test',
      state: 'disabled',
      disabledAt: new Date(T0).toISOString(),
    });
    expect(await identity().session(opened.token)).toBeNull();
    expect(await identity().signIn('off@owner.test', 'a long enough password', client)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expectError(await f.call('POST', '/users/off@owner.test/disable'), 409, 'conflict');
    expectError(await f.call('POST', '/users/off@owner.test/reset'), 409, 'conflict');
    expectError(await f.call('POST', '/users/ghost@owner.test/disable'), 404, 'not_found');
  });

  it('every route needs the admin token', async () => {
    for (const [method, url] of [
      ['GET', '/users'],
      ['POST', '/users'],
      ['POST', '/users/ann@owner.test/reset'],
      ['POST', '/users/ann@owner.test/disable'],
    ] as const) {
      const res = await f.ctx.app.inject({ method, url: `${ADMIN}${url}` });
      expectError(res, 401, 'invalid_api_key');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { PASSWORD } from './console-fixture.ts';
import {
  type Dashboard,
  expectCleanMarkup,
  expectHtml,
  expectPage,
  expectRedirect,
  noticeOf,
  secretOf,
  setupDashboard,
} from './dashboard-fixture.ts';

describe.each(DIALECTS)('dashboard: settings and members (%s)', (dialect) => {
  let d: Dashboard;
  let acme: number;
  beforeAll(async () => {
    d = await setupDashboard(dialect);
    acme = await d.accountId('acme');
  });
  afterAll(async () => d?.close());

  const members = async () =>
    (await d.ctx.container.identity.list({ accountId: acme })).map((u) => u.email).sort();

  it('shows the account, its plan and its members to an owner, with the invite form', async () => {
    const html = expectPage(await d.p.get('/dashboard/settings', d.owner));
    expectCleanMarkup(html);
    expect(html).toContain('<dt>Name</dt><dd>acme</dd>');
    expect(html).toContain('<dt>Plan</dt><dd>enterprise</dd>');
    expect(html).toContain('owner@acme.example <span class="hint">(you)</span>');
    expect(html).toContain('member@acme.example');
    expect(html).not.toContain('owner@other.example');
    expect(html).toContain('action="/dashboard/settings/members"');
    expect(html).toContain('action="/dashboard/sign-out-everywhere"');
  });

  it('a member sees the list read-only', async () => {
    const html = expectPage(await d.p.get('/dashboard/settings', d.member));
    expectCleanMarkup(html);
    expect(html).toContain('owner@acme.example');
    expect(html).not.toContain('action="/dashboard/settings/members"');
    expect(html).not.toContain('/remove"');
  });

  it('an owner invites: the one-time link is shown once and signs the new member in', async () => {
    const html = expectPage(
      await d.p.post('/dashboard/settings/members', d.owner, { email: 'New@Acme.example', role: 'member' }),
    );
    const link = secretOf(html, 'invite-link');
    // On the name the owner reached the service by (no PURERANK_PUBLIC_URL here).
    expect(link).toMatch(/^http:\/\/localhost:80\/dashboard\/welcome\/[A-Za-z0-9_-]+$/);
    expect(html).toContain('you will not see it again');
    expect(await members()).toContain('new@acme.example');
    const again = expectPage(await d.p.get('/dashboard/settings', d.owner));
    expect(again).not.toContain(link!);
    expect(again).toMatch(/new@acme\.example[\s\S]*?<span class="badge pending">invited<\/span>/);
    const token = link!.split('/').at(-1)!;
    const opened = await d.ctx.container.identity.followLink(token, PASSWORD, {
      address: '127.0.0.1',
      userAgent: null,
    });
    expect(opened.session.user).toMatchObject({
      email: 'new@acme.example',
      role: 'member',
      account: { name: 'acme' },
    });
  });

  it('a member cannot invite or remove: 404, and nothing changes', async () => {
    const before = await members();
    const ownerId = (await d.ctx.container.identity.list({ accountId: acme })).find(
      (u) => u.role === 'owner',
    )!.id;
    expectHtml(
      await d.p.post('/dashboard/settings/members', d.member, {
        email: 'sneaky@acme.example',
        role: 'owner',
      }),
      404,
    );
    expectHtml(await d.p.post(`/dashboard/settings/members/${ownerId}/remove`, d.member, {}), 404);
    expect(await members()).toEqual(before);
  });

  it("bad input is 400 naming the field; another account's member is 404; nothing changes", async () => {
    const before = await members();
    const badEmail = await d.p.post('/dashboard/settings/members', d.owner, {
      email: 'not an email',
      role: 'member',
    });
    expectHtml(badEmail, 400);
    const badRole = await d.p.post('/dashboard/settings/members', d.owner, {
      email: 'x@acme.example',
      role: 'operator',
    });
    expectHtml(badRole, 400);
    expect(noticeOf(badRole.body)).toContain("'role'");
    const theirs = (await d.ctx.container.identity.list({ accountId: await d.accountId('other') }))[0]!;
    expectHtml(await d.p.post(`/dashboard/settings/members/${theirs.id}/remove`, d.owner, {}), 404);
    expectHtml(await d.p.post('/dashboard/settings/members/abc/remove', d.owner, {}), 404);
    expect(await members()).toEqual(before);
    expect((await d.ctx.container.identity.list({ accountId: await d.accountId('other') })).length).toBe(1);
  });

  it('forms without the token or from another site are 403 and change nothing', async () => {
    const before = await members();
    const invite = { email: 'forged@acme.example', role: 'owner' };
    expectHtml(await d.p.post('/dashboard/settings/members', d.owner, invite, { csrf: null }), 403);
    expectHtml(await d.p.post('/dashboard/settings/members', d.owner, invite, { csrf: d.member.csrf }), 403);
    expectHtml(
      await d.p.post('/dashboard/settings/members', d.owner, invite, { origin: 'https://evil.example' }),
      403,
    );
    expect(await members()).toEqual(before);
  });

  it('an owner removes a member (behind a confirmation): their session ends at once', async () => {
    const memberId = (await d.ctx.container.identity.list({ accountId: acme })).find(
      (u) => u.email === 'member@acme.example',
    )!.id;
    const page = expectPage(await d.p.get('/dashboard/settings', d.owner));
    expect(page).toContain('data-confirm="Remove member@acme.example from acme?');
    const location = expectRedirect(
      await d.p.post(`/dashboard/settings/members/${memberId}/remove`, d.owner, {}),
      /^\/dashboard\/settings\?removed=1$/,
    );
    expect(noticeOf(expectPage(await d.p.get(location, d.owner)))).toContain('Removed');
    expect(await members()).not.toContain('member@acme.example');
    expectRedirect(await d.p.get('/dashboard/keys', d.member), /^\/dashboard\/sign-in/);
    // Removing yourself is refused.
    const ownerId = (await d.ctx.container.identity.list({ accountId: acme })).find(
      (u) => u.email === 'owner@acme.example',
    )!.id;
    expectHtml(await d.p.post(`/dashboard/settings/members/${ownerId}/remove`, d.owner, {}), 409);
  });

  it('sign out everywhere ends every session of the user', async () => {
    expectPage(await d.p.get('/dashboard/settings', d.proOwner));
    expectRedirect(
      await d.p.post('/dashboard/sign-out-everywhere', d.proOwner, {}),
      /^\/dashboard\/sign-in$/,
    );
    expectRedirect(await d.p.get('/dashboard/settings', d.proOwner), /^\/dashboard\/sign-in/);
  });

  it('a free account sees its plan and that it has no API access', async () => {
    const html = expectPage(await d.p.get('/dashboard/settings', d.freeOwner));
    expect(html).toContain('<dt>Plan</dt><dd>free</dd>');
    expect(html).toContain('no API access');
  });
});

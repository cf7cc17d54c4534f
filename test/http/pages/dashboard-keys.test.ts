import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import {
  type Dashboard,
  expectCleanMarkup,
  expectHtml,
  expectPage,
  expectRedirect,
  formFields,
  noticeOf,
  secretOf,
  setupDashboard,
} from './dashboard-fixture.ts';

const KEY = /^prk_live_[A-Za-z0-9_-]+$/;
const HOUR_MS = 3_600_000;

describe.each(DIALECTS)('dashboard: API keys (%s)', (dialect) => {
  let d: Dashboard;
  let acme: number;
  beforeAll(async () => {
    d = await setupDashboard(dialect);
    acme = await d.accountId('acme');
  });
  afterAll(async () => d?.close());

  const keysOf = (accountId: number) => d.ctx.container.accountKeys.list(accountId);

  /** Creates a key through the page and returns the plaintext the answer showed. */
  const create = async (name: string): Promise<string> => {
    const html = expectPage(await d.p.post('/dashboard/keys', d.owner, { name }));
    const key = secretOf(html, 'new-key');
    expect(key).toMatch(KEY);
    expect(html).toContain('you will not see it again');
    expect(html).toContain('data-copy="new-key"');
    return key!;
  };

  it('renders the account’s keys, with labelled forms and headings in order', async () => {
    const html = expectPage(await d.p.get('/dashboard/keys', d.owner));
    expectCleanMarkup(html);
    expect(html).toContain('Keys of acme');
    expect(html).toContain('action="/dashboard/keys"');
  });

  it('creates a key shown once, which works against /api/v1/vendors; the list never shows it again', async () => {
    const key = await create('production');
    expect(await d.api(key)).toBe(200);
    const again = expectPage(await d.p.get('/dashboard/keys', d.owner));
    expect(again).not.toContain(key);
    expect(secretOf(again, 'new-key')).toBeNull();
    const listed = (await keysOf(acme)).find((k) => k.name === 'production');
    expect(listed?.state).toBe('active');
    expect(again).toContain(`${listed!.prefix}…`);
  });

  it('a form without the session token, or with a wrong one, is refused with 403 and creates nothing', async () => {
    const before = (await keysOf(acme)).length;
    for (const csrf of [null, 'x'.repeat(43), d.otherOwner.csrf]) {
      const res = await d.p.post('/dashboard/keys', d.owner, { name: 'forged' }, { csrf });
      expectHtml(res, 403);
      expect(noticeOf(res.body)).toMatch(/out of date/);
    }
    expect((await keysOf(acme)).length).toBe(before);
  });

  it('a cross-origin post is refused with 403 and changes nothing', async () => {
    const [live] = (await keysOf(acme)).filter((k) => k.state === 'active');
    const before = await keysOf(acme);
    for (const [url, fields] of [
      ['/dashboard/keys', { name: 'evil' }],
      [`/dashboard/keys/${live!.id}/revoke`, {}],
      [`/dashboard/keys/${live!.id}/roll`, { overlap: '0' }],
    ] as const) {
      const res = await d.p.post(url, d.owner, fields, { origin: 'https://evil.example' });
      expectHtml(res, 403);
      expect(noticeOf(res.body)).toMatch(/another site/);
    }
    expect(await keysOf(acme)).toEqual(before);
  });

  it('revoke (confirmed in the browser) → the key’s very next request is 401', async () => {
    const key = await create('to-revoke');
    expect(await d.api(key)).toBe(200);
    const k = (await keysOf(acme)).find((x) => x.name === 'to-revoke')!;
    const html = expectPage(await d.p.get('/dashboard/keys', d.owner));
    expect(html).toContain(`data-confirm="Revoke to-revoke?`);
    const form = formFields(html, `/dashboard/keys/${k.id}/revoke`);
    const location = expectRedirect(
      await d.p.post(`/dashboard/keys/${k.id}/revoke`, d.owner, form),
      /^\/dashboard\/keys\?revoked=/,
    );
    expect(await d.api(key)).toBe(401);
    const after = expectPage(await d.p.get(location, d.owner));
    expect(noticeOf(after)).toContain('to-revoke is revoked');
    expect(after).toMatch(/<span class="badge revoked">revoked<\/span>/);
    // Revoking again changes nothing and says why.
    expectHtml(await d.p.post(`/dashboard/keys/${k.id}/revoke`, d.owner, {}), 409);
  });

  it('roll with a 1 h overlap → a new key at once, the old one listed with its expiry and working until then', async () => {
    const oldKey = await create('to-roll');
    const old = (await keysOf(acme)).find((x) => x.name === 'to-roll')!;
    const page0 = expectPage(await d.p.get('/dashboard/keys', d.owner));
    const form = formFields(page0, `/dashboard/keys/${old.id}/roll`);
    expect(form.overlap).toBe('86400');
    const html = expectPage(
      await d.p.post(`/dashboard/keys/${old.id}/roll`, d.owner, { ...form, overlap: '3600' }),
    );
    const newKey = secretOf(html, 'new-key');
    expect(newKey).toMatch(KEY);
    expect(newKey).not.toBe(oldKey);
    const expiry = new Date(d.ctx.clock.now() + HOUR_MS).toISOString().slice(0, 16).replace('T', ' ');
    expect(html).toContain(`until ${expiry} UTC`);
    // Both in the table: the old one expiring with its time, the new one active.
    const rows = (await keysOf(acme)).filter((k) => k.name === 'to-roll');
    expect(rows.map((k) => k.state).sort()).toEqual(['active', 'expiring']);
    expect(html).toMatch(
      new RegExp(`<span class="badge expiring">expiring</span></td>\\s*<td>${expiry} UTC</td>`),
    );
    expect(await d.api(oldKey)).toBe(200);
    expect(await d.api(newKey!)).toBe(200);
    d.ctx.clock.advance(HOUR_MS + 1000);
    expect(await d.api(oldKey)).toBe(401);
    expect(await d.api(newKey!)).toBe(200);
    const later = expectPage(await d.p.get('/dashboard/keys', d.owner));
    expect(later).toContain('<span class="badge expired">expired</span>');
  });

  it('roll "now" revokes the old key at once; an overlap not offered is 400 and changes nothing', async () => {
    const oldKey = await create('roll-now');
    const old = (await keysOf(acme)).find((x) => x.name === 'roll-now')!;
    const before = await keysOf(acme);
    const bad = await d.p.post(`/dashboard/keys/${old.id}/roll`, d.owner, { overlap: '60' });
    expectHtml(bad, 400);
    expect(noticeOf(bad.body)).toContain("'overlap'");
    expect(await keysOf(acme)).toEqual(before);
    const html = expectPage(await d.p.post(`/dashboard/keys/${old.id}/roll`, d.owner, { overlap: '0' }));
    expect(secretOf(html, 'new-key')).toMatch(KEY);
    expect(await d.api(oldKey)).toBe(401);
  });

  it("another account's key id is 404 for revoke and roll, and nothing changes", async () => {
    const otherId = (await d.ctx.container.accountKeys.create(await d.accountId('other'), 'theirs')).info.id;
    const before = await keysOf(await d.accountId('other'));
    for (const action of ['revoke', 'roll']) {
      const res = await d.p.post(`/dashboard/keys/${otherId}/${action}`, d.owner, { overlap: '0' });
      expectHtml(res, 404);
    }
    expectHtml(await d.p.post('/dashboard/keys/key_nothing/revoke', d.owner, {}), 404);
    expect(await keysOf(await d.accountId('other'))).toEqual(before);
    // Their page does not show acme's keys, nor acme's theirs.
    const theirs = expectPage(await d.p.get('/dashboard/keys', d.otherOwner));
    expect(theirs).toContain('theirs');
    expect(theirs).not.toContain('<td>production</td>');
    expect(expectPage(await d.p.get('/dashboard/keys', d.owner))).not.toContain('>theirs<');
  });

  it('a member of the account uses the keys page as an owner does', async () => {
    const html = expectPage(await d.p.post('/dashboard/keys', d.member, { name: 'member-made' }));
    expect(secretOf(html, 'new-key')).toMatch(KEY);
  });

  it('a free account sees its plan and what Enterprise unlocks, not a create form; a key cannot be made', async () => {
    const freebie = await d.accountId('freebie');
    const html = expectPage(await d.p.get('/dashboard/keys', d.freeOwner));
    expectCleanMarkup(html);
    expect(html).toContain('<strong>free</strong> plan');
    expect(html).toContain('Enterprise');
    expect(html).toMatch(/webhooks/i);
    expect(html).not.toContain('action="/dashboard/keys"');
    const res = await d.p.post('/dashboard/keys', d.freeOwner, { name: 'nope' });
    expectHtml(res, 403);
    expect(await keysOf(freebie)).toEqual([]);
  });

  it('a pro account creates keys that read the API; its page says what Enterprise adds', async () => {
    const html = expectPage(await d.p.post('/dashboard/keys', d.proOwner, { name: 'pro-key' }));
    const key = secretOf(html, 'new-key');
    expect(await d.api(key!)).toBe(200);
    expect(await d.api(key!, '/v1/webhooks')).toBe(403);
  });

  it('a name of control characters or too long is 400 naming it, and nothing is created', async () => {
    const before = (await keysOf(acme)).length;
    for (const name of ['bad\u0007name', 'x'.repeat(101)]) {
      const res = await d.p.post('/dashboard/keys', d.owner, { name });
      expectHtml(res, 400);
    }
    expect((await keysOf(acme)).length).toBe(before);
  });

  it('signed out: the page sends to sign-in, a post is refused and changes nothing', async () => {
    expectRedirect(await d.p.get('/dashboard/keys', null), /^\/dashboard\/sign-in\?next=/);
    const before = (await keysOf(acme)).length;
    const res = await d.p.post('/dashboard/keys', null, { name: 'anon' });
    expect([303, 403]).toContain(res.statusCode);
    expect((await keysOf(acme)).length).toBe(before);
  });
});

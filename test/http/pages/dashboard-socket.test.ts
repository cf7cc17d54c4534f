import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { coa } from '../coa/fixtures.ts';
import { PASSWORD } from './console-fixture.ts';
import { type Dashboard, secretOf, setupDashboard } from './dashboard-fixture.ts';

/**
 * The dashboard over a real socket, as a browser talks to it: the invitation link followed through
 * its page (the cookie set by the answer), forms read from the pages (their `_csrf`), a key created
 * and used against the API over HTTP, a PDF uploaded as a browser's FormData, and a cross-origin
 * post refused.
 */
describe.each(DIALECTS)('dashboard over a real socket (%s)', (dialect) => {
  let d: Dashboard;
  let base = '';
  let cookie = '';

  beforeAll(async () => {
    d = await setupDashboard(dialect);
    await d.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(d.ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => d?.close());

  const get = (path: string) => fetch(`${base}${path}`, { headers: { cookie }, redirect: 'manual' });
  const post = (path: string, body: URLSearchParams | FormData, origin = base) =>
    fetch(`${base}${path}`, { method: 'POST', body, headers: { cookie, origin }, redirect: 'manual' });
  /** The session's form token, from a page's form as a browser would submit it. */
  const csrfOf = (html: string): string => {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    expect(m).not.toBeNull();
    return m![1]!;
  };

  it('an invitation link followed through its page signs in (a cookie on the answer)', async () => {
    const link = await d.ctx.container.identity.invite({
      email: 'socket@acme.example',
      account: 'acme',
      role: 'owner',
      invitedBy: 'test',
    });
    const path = new URL(link.url).pathname;
    const page = await fetch(`${base}${path}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('socket@acme.example');
    const res = await post(path, new URLSearchParams({ password: PASSWORD, confirm: PASSWORD }));
    expect(res.status).toBe(303);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('purerank_session='));
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    cookie = set!.split(';')[0]!;
    expect((await get('/dashboard/keys')).status).toBe(200);
  });

  it('creates a key shown once that works against /api/v1/vendors over HTTP; revoked, its next request is 401', async () => {
    const csrf = csrfOf(await (await get('/dashboard/keys')).text());
    const created = await post('/dashboard/keys', new URLSearchParams({ _csrf: csrf, name: 'over-socket' }));
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('content-security-policy')).toContain("script-src 'self'");
    const key = secretOf(await created.text(), 'new-key')!;
    expect(key).toMatch(/^prk_live_/);
    const api = () =>
      fetch(`${base}/api/v1/vendors?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect((await api()).status).toBe(200);
    const usage = await (await get('/dashboard/usage')).text();
    expect(usage).toMatch(
      /over-socket \(prk_live_\w+…\)<\/td>\s*<td>Variant B \(\/api\/v1\)<\/td>\s*<td class="num">\s*1 \/ 1,000/,
    );
    const { id } = (await d.ctx.container.accountKeys.list(await d.accountId('acme'))).find(
      (k) => k.name === 'over-socket',
    )!;
    const revoked = await post(`/dashboard/keys/${id}/revoke`, new URLSearchParams({ _csrf: csrf }));
    expect(revoked.status).toBe(303);
    expect((await api()).status).toBe(401);
  });

  it('a cross-origin form post is refused (403) and creates nothing', async () => {
    const acme = await d.accountId('acme');
    const before = (await d.ctx.container.accountKeys.list(acme)).length;
    const csrf = csrfOf(await (await get('/dashboard/keys')).text());
    const res = await post(
      '/dashboard/keys',
      new URLSearchParams({ _csrf: csrf, name: 'evil' }),
      'https://evil.example',
    );
    expect(res.status).toBe(403);
    expect((await d.ctx.container.accountKeys.list(acme)).length).toBe(before);
  });

  it('uploads a generated PDF as a browser FormData does; it shows in the list', async () => {
    const csrf = csrfOf(await (await get('/dashboard/coa')).text());
    const form = new FormData();
    form.append('_csrf', csrf);
    form.append('peptide', 'bpc-157');
    form.append('batch_id', 'NW-1001');
    form.append('vendor', '');
    form.append(
      'file',
      new Blob([await coa({ batch: 'NW-1001', compound: 'BPC-157', purity: 99.2 })], {
        type: 'application/pdf',
      }),
      'coa.pdf',
    );
    const res = await post('/dashboard/coa', form);
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/dashboard\/coa\/ver_[0-9a-f]{32}\?uploaded=1$/);
    expect(await (await get(location)).text()).toContain('<span class="badge verified">verified</span>');
    expect(await (await get('/dashboard/coa')).text()).toContain(location.split('?')[0]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { SESSION_COOKIE } from './console-fixture.ts';
import { type Dashboard, setupDashboard } from './dashboard-fixture.ts';

/** The sign-in pages' own rules, beyond what the browser suite walks through. */
describe.each(DIALECTS)('sign-in pages (%s)', (dialect) => {
  let d: Dashboard;
  beforeAll(async () => {
    d = await setupDashboard(dialect);
  });
  afterAll(async () => d?.close());

  it('following a one-time link ends the session this browser had open (another user’s) — hostile test F11', async () => {
    const link = await d.ctx.container.identity.invite({
      email: 'newcomer@acme.example',
      account: 'acme',
      role: 'member',
      invitedBy: 'test',
    });
    const path = new URL(link.url).pathname;
    const res = await d.ctx.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'localhost:80',
        origin: 'http://localhost:80',
        cookie: d.member.cookie,
      },
      payload: new URLSearchParams({
        password: 'a long enough password',
        confirm: 'a long enough password',
      }).toString(),
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const set = String(res.headers['set-cookie']);
    expect(set).toContain(`${SESSION_COOKIE}=`);
    // The member's earlier session, whose cookie came with the form, is over.
    const old = d.member.cookie.split('=')[1]!;
    expect(await d.ctx.container.identity.session(old)).toBeNull();
  });

  it('sign-in sends you only to this service’s own pages: %2e%2e dot segments are not a way out — hostile test F8', async () => {
    const res = await d.p.post('/dashboard/sign-in', null, {
      email: 'owner@acme.example',
      password: 'correct horse battery staple',
      next: '/dashboard/%2e%2e/%2e%2e/docs',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
  });

  it('a form token of the right length in characters but not in bytes is refused (403), not a 500 — hostile test F6', async () => {
    const res = await d.p.post('/dashboard/keys', d.owner, { name: 'x' }, { csrf: 'é'.repeat(43) });
    expect(res.statusCode).toBe(403);
  });
});

/**
 * Behind a proxy every client arrives from the proxy's address: with PURERANK_TRUST_PROXY naming it,
 * the per-address sign-in throttle counts the client's address from X-Forwarded-For; without it,
 * X-Forwarded-For is not believed (hostile test F2).
 */
describe('sign-in throttle per address behind a proxy', () => {
  const attempt = (d: Dashboard, forwardedFor: string) =>
    d.ctx.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'localhost:80',
        origin: 'http://localhost:80',
        'x-forwarded-for': forwardedFor,
      },
      payload: 'email=nobody%40acme.example&password=wrong+password+here',
    });

  it('with the proxy trusted, one client’s failures do not refuse another client', async () => {
    const d = await setupDashboard('sqlite', { config: { trustProxy: ['127.0.0.1'] } });
    try {
      for (let i = 0; i < 20; i++) expect((await attempt(d, '203.0.113.1')).statusCode).toBe(401);
      expect((await attempt(d, '203.0.113.1')).statusCode).toBe(429);
      expect((await attempt(d, '203.0.113.2')).statusCode).toBe(401);
    } finally {
      await d.close();
    }
  });

  it('without it, X-Forwarded-For changes nothing: the peer is the address', async () => {
    const d = await setupDashboard('sqlite');
    try {
      for (let i = 0; i < 20; i++) expect((await attempt(d, `203.0.113.${i + 1}`)).statusCode).toBe(401);
      expect((await attempt(d, '203.0.113.99')).statusCode).toBe(429);
    } finally {
      await d.close();
    }
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coa, REGISTRY } from '../http/coa/fixtures.ts';
import { privateUrls } from '../http/webhooks/helpers.ts';
import { DIALECTS } from '../support/databases.ts';
import {
  acceptLink,
  chromiumMissing,
  formToken,
  launch,
  userContext,
  type Watch,
} from './support/browser.ts';
import { type OtherOrigin, startOtherOrigin } from './support/other-origin.ts';
import { PASSWORD, type Site, startSite } from './support/site.ts';

/**
 * Accounts are walls, and other sites cannot act for a signed-in user, in a real browser on both
 * databases. A member of another account gets the 404 page for this account's key (its usage),
 * webhook endpoint and upload, sees none of them in their own lists, and cannot revoke, roll or
 * delete them even with their own valid form token. A page on another origin that auto-submits a
 * form to the dashboard (with the victim's own form token, as if it had leaked) is refused and
 * changes nothing, whether it is the same site on another port (the session cookie goes along) or
 * another site.
 */
describe.skipIf(chromiumMissing).each(DIALECTS)('accounts and origins in a real browser (%s)', (dialect) => {
  let site: Site;
  let browser: Browser;
  let other: OtherOrigin;
  let alice: Page;
  let bob: Page;
  const watches: Watch[] = [];
  /** Alice's: an API key, a webhook endpoint, a CoA upload. */
  let key: { id: string; key: string; prefix: string };
  let endpointId: string;
  let uploadId: string;
  let alphaId: number;

  beforeAll(async () => {
    [site, browser, other] = await Promise.all([
      startSite(dialect, { records: REGISTRY, config: privateUrls() }),
      launch(),
      startOtherOrigin(),
    ]);
    await site.account('alpha-co', 'enterprise');
    await site.account('beta-co', 'enterprise');
    const { container } = site.ctx;
    alphaId = (await container.store.accounts.findByName('alpha-co'))!.id;
    const created = await container.accountKeys.create(alphaId, 'alpha key');
    key = { id: created.info.id, key: created.key, prefix: created.info.prefix };
    endpointId = (await container.webhooks.create(alphaId, { url: `${other.origin}/hook`, events: ['*'] }))
      .endpoint.id;
    const form = new FormData();
    form.append('file', new Blob([await coa({ batch: 'NW-1001' })], { type: 'application/pdf' }), 'a.pdf');
    form.append('peptide', 'bpc-157');
    form.append('vendor', 'aurora');
    const res = await fetch(`${site.base}/v1/coa/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    uploadId = ((await res.json()) as { verification_id: string }).verification_id;

    const signedIn = async (email: string, account: string): Promise<Page> => {
      const { context, watch } = await userContext(browser);
      watches.push(watch);
      const p = await context.newPage();
      await acceptLink(p, await site.invite(email, account, 'owner'), PASSWORD, /\/dashboard\/keys$/);
      return p;
    };
    alice = await signedIn('alice@alpha.example', 'alpha-co');
    bob = await signedIn('bob@beta.example', 'beta-co');
  });
  afterAll(async () => {
    await browser?.close();
    await other?.close();
    await site?.close();
  });
  afterEach(() => {
    for (const w of watches) expect(w.take()).toEqual([]);
  });

  const keyWorks = async (): Promise<boolean> =>
    (await site.api('/api/v1/vendors?limit=1', key.key)).status === 200;
  const aliceKeyState = async (): Promise<string | undefined> =>
    (await site.ctx.container.accountKeys.list(alphaId)).find((k) => k.id === key.id)?.state;

  it("the owner sees her key, endpoint and upload (the pages work: the next test's 404s mean something)", async () => {
    for (const path of [
      `/dashboard/webhooks/${endpointId}`,
      `/dashboard/coa/${uploadId}`,
      `/dashboard/usage?key=${key.id}`,
    ]) {
      expect((await alice.goto(`${site.base}${path}`))?.status(), path).toBe(200);
    }
    await alice.goto(`${site.base}/dashboard/keys`);
    await expect(alice.getByText(key.prefix).count()).resolves.toBeGreaterThan(0);
  });

  it('a member of another account gets 404 for them and does not see them in their own lists', async () => {
    for (const path of [
      `/dashboard/webhooks/${endpointId}`,
      `/dashboard/coa/${uploadId}`,
      `/dashboard/usage?key=${key.id}`,
    ]) {
      const res = await bob.goto(`${site.base}${path}`);
      expect(res?.status(), path).toBe(404);
      await expect(bob.locator('h1').textContent()).resolves.toBe('Not found');
    }
    for (const [path, secret] of [
      ['/dashboard/keys', key.prefix],
      ['/dashboard/usage', key.id],
      ['/dashboard/webhooks', endpointId],
      ['/dashboard/coa', uploadId],
    ] as const) {
      await bob.goto(`${site.base}${path}`);
      expect(await bob.content(), path).not.toContain(secret);
    }
  });

  it('nor can they revoke, roll or delete them with their own valid form token', async () => {
    await bob.goto(`${site.base}/dashboard/keys`);
    const token = await formToken(bob);
    expect(token).not.toBe('');
    for (const [path, fields] of [
      [`/dashboard/keys/${key.id}/revoke`, {}],
      [`/dashboard/keys/${key.id}/roll`, { overlap: '0' }],
      [`/dashboard/webhooks/${endpointId}/delete`, {}],
    ] as const) {
      const res = await bob.request.post(`${site.base}${path}`, {
        form: { _csrf: token, ...fields },
        headers: { origin: site.base },
        maxRedirects: 0,
      });
      expect(res.status(), path).toBe(404);
    }
    expect(await aliceKeyState()).toBe('active');
    expect(await keyWorks()).toBe(true);
    await expect(site.ctx.container.webhooks.get(alphaId, endpointId)).resolves.toMatchObject({
      id: endpointId,
    });
  });

  /** Alice, signed in, opens the page at `url`; it posts itself; returns the answer to that post. */
  const lured = async (url: string): Promise<{ status: number; text: string }> => {
    const [res] = await Promise.all([
      alice.waitForResponse((r) => r.request().method() === 'POST' && r.url().startsWith(site.base)),
      alice.goto(url),
    ]);
    await alice.waitForURL((u) => u.origin === site.base);
    await alice.waitForLoadState();
    return { status: res.status(), text: (await alice.locator('main').textContent()) ?? '' };
  };

  it('a form on another origin (same site, another port) is refused, with the session cookie and the real token', async () => {
    await alice.goto(`${site.base}/dashboard/keys`);
    const token = await formToken(alice);
    const before = (await site.ctx.container.accountKeys.list(alphaId)).length;

    const revoke = other.autoSubmit(`${site.base}/dashboard/keys/${key.id}/revoke`, { _csrf: token });
    const answer = await lured(`${other.origin}${revoke}`);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('This form was sent from another site, so it was not carried out.');
    expect(await aliceKeyState()).toBe('active');
    expect(await keyWorks()).toBe(true);

    const create = other.autoSubmit(`${site.base}/dashboard/keys`, { _csrf: token, name: 'planted' });
    expect((await lured(`${other.origin}${create}`)).status).toBe(403);
    expect((await site.ctx.container.accountKeys.list(alphaId)).length).toBe(before);

    // Alice is still signed in: the refusal did not cost her the session.
    await alice.goto(`${site.base}/dashboard/keys`);
    expect(new URL(alice.url()).pathname).toBe('/dashboard/keys');
  });

  it('a form on another site is refused too, and changes nothing', async () => {
    await alice.goto(`${site.base}/dashboard/keys`);
    const token = await formToken(alice);
    const path = other.autoSubmit(`${site.base}/dashboard/webhooks/${endpointId}/delete`, { _csrf: token });
    const answer = await lured(`${other.otherSite}${path}`);
    // The cookie stays home (SameSite=Lax), and the Origin is refused before anything else.
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('sent from another site');
    await expect(site.ctx.container.webhooks.get(alphaId, endpointId)).resolves.toMatchObject({
      id: endpointId,
    });
  });
});

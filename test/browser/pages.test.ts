import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coa, REGISTRY } from '../http/coa/fixtures.ts';
import { privateUrls } from '../http/webhooks/helpers.ts';
import { DIALECTS } from '../support/databases.ts';
import { axeContext, axeViolations } from './support/axe.ts';
import { acceptLink, chromiumMissing, launch, userContext, type Watch } from './support/browser.ts';
import { screenshots } from './support/screens.ts';
import { PASSWORD, type Site, startSite, T0 } from './support/site.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type Who = 'public' | 'owner' | 'free' | 'operator';

interface Shot {
  /** The screenshot's name: test-results/screenshots/<name>-<width>.png. */
  name: string;
  who: Who;
  path: () => string;
  status?: number;
  /** What to do on the page before looking at it (the answer to a form, say). */
  act?: (page: Page) => Promise<void>;
}

/** One pair of contexts per visitor: as users have it (CSP on, watched), and for axe (CSP bypassed). */
interface Visitor {
  page: Page;
  watch: Watch;
  axe: Page;
}

/**
 * Every page of the dashboard and the console, with realistic content (a week of usage, keys in
 * every state, webhook endpoints with delivered and failed attempts, verified and pending CoA
 * uploads, an override), on both databases: it answers as it should, no Content-Security-Policy
 * violation or script error is reported, axe-core finds no serious or critical accessibility
 * violation, nothing is wider than a 390 px screen, the stylesheet is applied. Screenshots of each
 * at 1280 and 390 px go to test-results/screenshots/ (from the SQLite run; the PostgreSQL run checks
 * the same without writing them again).
 */
describe.skipIf(chromiumMissing).each(DIALECTS)('every page in a real browser (%s)', (dialect) => {
  let site: Site;
  let browser: Browser;
  let receiver: Server;
  const contexts: BrowserContext[] = [];
  const visitors = {} as Record<Who, Visitor>;
  const ids = { endpoint: '', upload: '', welcome: '' };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      res.writeHead(req.url === '/fail' ? 500 : 204).end();
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    [site, browser] = await Promise.all([
      startSite(dialect, { records: REGISTRY, config: privateUrls() }),
      launch(),
    ]);
    const { container, clock } = site.ctx;
    await site.account('Acme Research', 'enterprise');
    await site.account('Hobby Lab', 'free');
    const acme = (await container.store.accounts.findByName('Acme Research'))!.id;

    // A week of requests, a few every six hours, on both variants.
    clock.set(T0 - 6 * DAY_MS);
    const prod = await container.accountKeys.create(acme, 'production');
    const staging = await container.accountKeys.create(acme, 'staging');
    const old = await container.accountKeys.create(acme, 'old laptop');
    for (let h = 0; h < 6 * 24; h += 6) {
      clock.set(T0 - 6 * DAY_MS + h * HOUR_MS);
      const calls = [site.api('/api/v1/vendors?limit=2', prod.key)];
      for (let i = 0; i < h % 5; i++) calls.push(site.api('/api/v1/vendors/aurora', prod.key));
      if (h % 12 === 0) calls.push(site.api('/v1/vendors?per_page=2', staging.key));
      for (const res of await Promise.all(calls)) expect(res.status).toBe(200);
    }
    clock.set(T0);
    await container.accountKeys.revoke(acme, old.info.id);
    await container.accountKeys.roll(acme, staging.info.id, 86_400);

    const ok = await container.webhooks.create(acme, {
      url: `${hooks}/ok`,
      events: ['*'],
      description: 'Order system',
    });
    ids.endpoint = ok.endpoint.id;
    await container.webhooks.test(acme, ok.endpoint.id);
    const failing = await container.webhooks.create(acme, {
      url: `${hooks}/fail`,
      events: ['coa.approved', 'coa.rejected'],
      description: 'Compliance inbox',
    });
    await container.webhooks.test(acme, failing.endpoint.id);

    const upload = async (batch: string, compound: string, peptide: string) => {
      const form = new FormData();
      const pdf = await coa({ batch, compound, verificationKey: `NWA-${batch}` });
      form.append('file', new Blob([pdf], { type: 'application/pdf' }), `${batch}.pdf`);
      form.append('peptide', peptide);
      form.append('vendor', 'aurora');
      const res = await fetch(`${site.base}/v1/coa/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${prod.key}` },
        body: form,
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { verification_id: string }).verification_id;
    };
    ids.upload = await upload('NW-1001', 'BPC-157', 'bpc-157');
    await upload('SEM-4242', 'Semaglutide', 'semaglutide');
    // Events for the console's outbox page: an approval (coa.approved, score.changed) and an override.
    await upload('SEM-5151', 'Semaglutide', 'semaglutide');
    await container.operator.reviewBatch('aurora', 'SEM-5151', 'approve', {}, 'op@purerank.example');
    await container.operator.setOverride(
      'helix',
      'transparency',
      10,
      'No lab reports published since March.',
      'op@purerank.example',
    );

    const visit = async (who: Who, link: string | null, landing: RegExp): Promise<void> => {
      const { context, watch } = await userContext(browser);
      contexts.push(context);
      const page = await context.newPage();
      if (link) await acceptLink(page, link, PASSWORD, landing);
      const bypass = await axeContext(browser, await context.storageState());
      contexts.push(bypass);
      bypass.setDefaultTimeout(10_000);
      visitors[who] = { page, watch, axe: await bypass.newPage() };
    };
    await visit(
      'owner',
      await site.invite('olivia@acme.example', 'Acme Research', 'owner'),
      /\/dashboard\/keys$/,
    );
    await visit('free', await site.invite('hana@hobby.example', 'Hobby Lab', 'owner'), /\/dashboard\/keys$/);
    await visit(
      'operator',
      await site.invite('op@purerank.example', null, 'operator'),
      /\/console\/reviews$/,
    );
    await visit('public', null, /./);
    await site.invite('mark@acme.example', 'Acme Research', 'member');
    ids.welcome = new URL(await site.invite('newcomer@acme.example', 'Acme Research', 'member')).pathname;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => receiver?.close(done));
    await site?.close();
  });

  const SHOTS: Shot[] = [
    { name: 'sign-in', who: 'public', path: () => '/dashboard/sign-in' },
    { name: 'welcome', who: 'public', path: () => ids.welcome },
    { name: 'not-found', who: 'public', path: () => '/dashboard/no-such-page', status: 404 },
    { name: 'dashboard-keys', who: 'owner', path: () => '/dashboard/keys' },
    {
      name: 'dashboard-keys-created',
      who: 'owner',
      path: () => '/dashboard/keys',
      act: async (page) => {
        await page.getByLabel(/^Name/).fill('reporting');
        await Promise.all([
          page.waitForLoadState(),
          page.getByRole('button', { name: 'Create key' }).click(),
        ]);
        await page.locator('#new-key').waitFor();
      },
    },
    { name: 'dashboard-usage', who: 'owner', path: () => '/dashboard/usage' },
    { name: 'dashboard-webhooks', who: 'owner', path: () => '/dashboard/webhooks' },
    { name: 'dashboard-webhook', who: 'owner', path: () => `/dashboard/webhooks/${ids.endpoint}` },
    { name: 'dashboard-coa', who: 'owner', path: () => '/dashboard/coa' },
    { name: 'dashboard-coa-detail', who: 'owner', path: () => `/dashboard/coa/${ids.upload}` },
    { name: 'dashboard-settings', who: 'owner', path: () => '/dashboard/settings' },
    {
      name: 'dashboard-not-found',
      who: 'owner',
      path: () => '/dashboard/webhooks/ep_000000000000000000000000',
      status: 404,
    },
    { name: 'dashboard-keys-free', who: 'free', path: () => '/dashboard/keys' },
    { name: 'dashboard-coa-free', who: 'free', path: () => '/dashboard/coa' },
    { name: 'console-reviews', who: 'operator', path: () => '/console/reviews' },
    { name: 'console-vendors', who: 'operator', path: () => '/console/vendors' },
    { name: 'console-vendor', who: 'operator', path: () => '/console/vendors/helix' },
    { name: 'console-accounts', who: 'operator', path: () => '/console/accounts' },
    { name: 'console-account', who: 'operator', path: () => '/console/accounts/Acme%20Research' },
    { name: 'console-events', who: 'operator', path: () => '/console/events' },
  ];

  it.each(SHOTS)('$name: answers, no CSP violation, no axe finding, fits 390 px', async (shot) => {
    const v = visitors[shot.who];
    const url = `${site.base}${shot.path()}`;
    const res = await v.page.goto(url);
    expect(res?.status()).toBe(shot.status ?? 200);
    if (shot.act) await shot.act(v.page);
    expect(await screenshots(v.page, shot.name, { write: dialect === DIALECTS[0] })).toEqual([]);
    expect(v.watch.take()).toEqual([]);

    await v.axe.goto(url);
    if (shot.act) await shot.act(v.axe);
    expect(await axeViolations(v.axe)).toEqual([]);
  });

  it('the watch does report a CSP violation when a page meets one (an injected inline script)', async () => {
    const v = visitors.owner;
    await v.page.goto(`${site.base}/dashboard/keys`);
    await v.page.addScriptTag({ content: 'document.title = "injected"' }).catch(() => {});
    await expect(v.page.title()).resolves.not.toBe('injected');
    await v.page.waitForTimeout(100);
    expect(
      v.watch.take().some((p) => p.includes('CSP violation') || p.includes('Content Security Policy')),
    ).toBe(true);
  });
});

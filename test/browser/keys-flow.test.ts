import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../http/coa/fixtures.ts';
import { DIALECTS } from '../support/databases.ts';
import { acceptLink, chromiumMissing, launch, userContext, type Watch } from './support/browser.ts';
import { readClipboard } from './support/in-page.ts';
import { PASSWORD, type Site, startSite } from './support/site.ts';

const HOUR_MS = 3_600_000;
const KEY = /^prk_live_[A-Za-z0-9_-]+$/;

/**
 * The issue's own flow in a real browser, on both databases: `purerank users invite` prints a link →
 * set a password → signed in → create a key (shown once, with a copy button) → the key works
 * against /api/v1/vendors over HTTP → the usage page shows it counted → revoke (confirmed) → its
 * next request is 401. Then a roll with an overlap: both keys listed with their expiry, both work
 * until the old one's expiry, then only the new one.
 */
describe.skipIf(chromiumMissing).each(DIALECTS)('API keys in a real browser (%s)', (dialect) => {
  let site: Site;
  let browser: Browser;
  let context: BrowserContext;
  let watch: Watch;
  let page: Page;
  beforeAll(async () => {
    [site, browser] = await Promise.all([startSite(dialect, { records: REGISTRY }), launch()]);
    await site.account('keys-co', 'pro');
    ({ context, watch } = await userContext(browser));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.base });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
  afterEach(() => {
    expect(watch.take()).toEqual([]);
  });

  const vendors = async (key: string): Promise<number> =>
    (await site.api('/api/v1/vendors?limit=2', key)).status;
  /** The row of the keys table whose first cell is the key's name. */
  const row = (name: string) =>
    page.locator('tbody tr', { has: page.getByRole('cell', { name, exact: true }) });
  const createKey = async (name: string): Promise<string> => {
    await page.goto(`${site.base}/dashboard/keys`);
    await page.getByLabel(/^Name/).fill(name);
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    const key = ((await page.locator('#new-key').textContent()) ?? '').trim();
    expect(key).toMatch(KEY);
    return key;
  };
  const openActions = async (name: string) => {
    await row(name).locator('summary', { hasText: 'Roll or revoke' }).click();
  };

  let key = '';

  it('an invitation printed by the CLI → a password → signed in → a key shown once, with a copy button', async () => {
    const link = await site.inviteByCli('owner@keys.example', 'keys-co');
    await acceptLink(page, link, PASSWORD, /\/dashboard\/keys$/);
    await expect(page.getByText('This account has no keys yet.').isVisible()).resolves.toBe(true);

    key = await createKey('production');
    await expect(page.getByText('you will not see it again').first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Copy the key' }).isVisible()).resolves.toBe(true);
    // Its label changes once clicked: found by what it copies.
    await page.locator('button[data-copy="new-key"]').click();
    // The clipboard write is asynchronous; the label says when it is done.
    await page.locator('button[data-copy="new-key"]', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(readClipboard)).toBe(key);
    await expect(row('production').getByText('active').isVisible()).resolves.toBe(true);

    // Never again: the keys page holds its prefix only.
    await page.goto(`${site.base}/dashboard/keys`);
    expect(await page.content()).not.toContain(key);
    const prefix = (await row('production').locator('code').textContent()) ?? '';
    expect(key.startsWith(prefix.replace('…', ''))).toBe(true);
  });

  it('the key works against /api/v1/vendors, and the usage page counts it', async () => {
    for (let i = 0; i < 3; i++) expect(await vendors(key)).toBe(200);

    await page.goto(`${site.base}/dashboard/usage`);
    const now = page
      .locator('tbody tr', { hasText: 'Variant B (/api/v1)' })
      .filter({ hasText: 'production' });
    await expect(now.locator('td.num').first().textContent()).resolves.toMatch(/^\s*3 \/ [\d,]+/);
    await expect(page.locator('#week-summary').textContent()).resolves.toContain('3 on Variant B');
    // The charts are drawn (uPlot from the package, run by pages.js under the CSP).
    await page.locator('[data-chart="week-data"] canvas').first().waitFor();
    await page.locator('[data-chart="quarter-data"] canvas').first().waitFor();

    await page.goto(`${site.base}/dashboard/keys`);
    await expect(row('production').getByRole('cell', { name: 'never' }).count()).resolves.toBe(0);
  });

  it('revoke asks first (dismissed: nothing happens); accepted, the next request is 401', async () => {
    await page.goto(`${site.base}/dashboard/keys`);
    await openActions('production');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Revoke production' }).click();
    expect(asked).toEqual(['Revoke production? Its next request gets 401; this cannot be undone.']);
    expect(await vendors(key)).toBe(200);

    page.once('dialog', (d) => void d.accept());
    await Promise.all([
      page.waitForURL(/\/dashboard\/keys\?revoked=/),
      page.getByRole('button', { name: 'Revoke production' }).click(),
    ]);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('is revoked');
    await expect(row('production').getByText('revoked').first().isVisible()).resolves.toBe(true);
    expect(await vendors(key)).toBe(401);
  });

  it('roll with an overlap: a new key at once, both listed with expiry, the old one works until then', async () => {
    const old = await createKey('rolling');
    expect(await vendors(old)).toBe(200);

    await page.goto(`${site.base}/dashboard/keys`);
    await openActions('rolling');
    await row('rolling').getByLabel('Old key keeps working for').selectOption({ label: '1 hour' });
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Roll rolling' }).click(),
    ]);
    const fresh = ((await page.locator('#new-key').textContent()) ?? '').trim();
    expect(fresh).toMatch(KEY);
    expect(fresh).not.toBe(old);
    await expect(page.getByRole('button', { name: 'Copy the new key' }).isVisible()).resolves.toBe(true);

    // Both in the table: the old one expiring at now + 1 h, the new one without an expiry.
    const expiry = new Date(site.ctx.clock.now() + HOUR_MS).toISOString().slice(0, 16).replace('T', ' ');
    await page.goto(`${site.base}/dashboard/keys`);
    const rows = row('rolling');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.filter({ hasText: 'expiring' }).textContent()).resolves.toContain(`${expiry} UTC`);
    await expect(rows.filter({ hasText: 'does not expire' }).getByText('active').isVisible()).resolves.toBe(
      true,
    );

    expect(await vendors(old)).toBe(200);
    expect(await vendors(fresh)).toBe(200);
    // Past the overlap, the old key is refused; the new one goes on.
    site.ctx.clock.set(site.ctx.clock.now() + HOUR_MS + 1000);
    expect(await vendors(old)).toBe(401);
    expect(await vendors(fresh)).toBe(200);
    await page.goto(`${site.base}/dashboard/keys`);
    await expect(row('rolling').filter({ hasText: 'expired' }).count()).resolves.toBe(1);
  });
});

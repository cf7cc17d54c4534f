import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.ts';
import { acceptLink, chromiumMissing, launch, signIn, userContext, type Watch } from './support/browser.ts';
import { PASSWORD, type Site, startSite } from './support/site.ts';

/**
 * Who signs in, in a real browser on both databases: a one-time link sets a password and signs in
 * (once), sign-out ends the session, the sign-in form returns to the page asked for, operators land
 * in the console and members are kept out of it, and repeated failures are throttled with a
 * message until the lock ends.
 */
describe.skipIf(chromiumMissing).each(DIALECTS)('sign-in in a real browser (%s)', (dialect) => {
  let site: Site;
  let browser: Browser;
  let context: BrowserContext;
  let watch: Watch;
  let page: Page;
  beforeAll(async () => {
    [site, browser] = await Promise.all([startSite(dialect), launch()]);
    await site.account('signin-co', 'pro');
    ({ context, watch } = await userContext(browser));
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
  // Every page of every test: no CSP violation, no script error, no asset that failed.
  afterEach(() => {
    expect(watch.take()).toEqual([]);
  });

  const alert = () => page.getByRole('alert');

  it('an invitation link sets a password (twice the same) and signs in; it works once', async () => {
    const link = await site.invite('owner@signin.example', 'signin-co', 'owner');
    await page.goto(link);
    await expect(page.getByText('owner@signin.example').first().isVisible()).resolves.toBe(true);

    // Two different passwords: said so, nothing set.
    await page.getByLabel('Password (at least 12 characters)').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(`${PASSWORD}!`);
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect(alert().textContent()).resolves.toContain('not the same');
    expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);

    await acceptLink(page, link, PASSWORD, /\/dashboard\//);
    await expect(page.getByText('owner@signin.example').first().isVisible()).resolves.toBe(true);

    // The link is used up.
    const again = await page.goto(link);
    expect(again?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Link not valid');
  });

  it('sign-out ends the session; a page then asks to sign in and returns there afterwards', async () => {
    await page.goto(`${site.base}/dashboard/settings`);
    await Promise.all([
      page.waitForURL(/\/dashboard\/sign-in$/),
      page.getByRole('button', { name: 'Sign out', exact: true }).click(),
    ]);
    await page.goto(`${site.base}/dashboard/usage`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/usage');

    await page.getByLabel('Email').fill('owner@signin.example');
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(alert().textContent()).resolves.toContain('do not match');

    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([
      page.waitForURL(/\/dashboard\/usage$/),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
  });

  it('an operator lands in the console; a member is not let into it, an operator not into the dashboard', async () => {
    const { context: ops, watch: opsWatch } = await userContext(browser);
    try {
      const op = await ops.newPage();
      await acceptLink(op, await site.invite('op@signin.example', null, 'operator'), PASSWORD, /\/console\//);
      await op.goto(`${site.base}/dashboard/keys`);
      expect(new URL(op.url()).pathname).toMatch(/^\/console\//);
      expect(opsWatch.take()).toEqual([]);
    } finally {
      await ops.close();
    }
    const res = await page.goto(`${site.base}/console/reviews`);
    expect(res?.status()).toBe(404);
  });

  it('repeated failed sign-ins lock the user, answered like any wrong password, until the lock ends', async () => {
    const { context: fresh, watch: freshWatch } = await userContext(browser);
    try {
      const p = await fresh.newPage();
      await acceptLink(
        p,
        await site.invite('locked@signin.example', 'signin-co', 'member'),
        PASSWORD,
        /\/dashboard\//,
      );
      await fresh.clearCookies();
      const attempt = async (password: string) => {
        await p.goto(`${site.base}/dashboard/sign-in`);
        await p.getByLabel('Email').fill('locked@signin.example');
        await p.getByLabel('Password').fill(password);
        const [res] = await Promise.all([
          p.waitForResponse((r) => r.request().method() === 'POST'),
          p.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        await p.waitForLoadState();
        return res.status();
      };
      // Five wrong passwords lock the user; every answer, the lock's included, is the one a wrong
      // password or an unknown email gets (a distinct 429 would say which emails have users).
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await attempt(`wrong ${i}`));
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      await expect(p.getByRole('alert').textContent()).resolves.toMatch(
        /do not match an active user\. After 5 failed attempts in a row, a user’s sign-in pauses for 15 minutes\./,
      );
      // The right password does not open a locked door either, and says nothing more.
      expect(await attempt(PASSWORD)).toBe(401);

      // The lock ends (the manual clock moves past it): the right password signs in again.
      site.ctx.clock.set(site.ctx.clock.now() + 16 * 60_000);
      await signIn(p, site.base, 'locked@signin.example', PASSWORD, /\/dashboard\/keys$/);
      expect(freshWatch.take()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

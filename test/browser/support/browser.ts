import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium.ts';
import { reportViolations } from './in-page.ts';

export { chromiumMissing } from '../chromium.ts';

/** Debian's chromium, headless, never a downloaded browser (test/browser/chromium.ts). */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * What went wrong in a context's pages, as the browser reports it: Content-Security-Policy
 * violations (the `securitypolicyviolation` event of every document, relayed to the console by an
 * init script, and Chromium's own "Refused to …" console errors), other console errors, uncaught
 * page errors, and requests that failed (an asset that did not load).
 */
export interface Watch {
  /** Everything reported since the last call, then forgotten. */
  take(): string[];
}

const VIOLATION = 'CSP violation:';

export async function watchContext(context: BrowserContext): Promise<Watch> {
  const seen: string[] = [];
  // DevTools-injected, not inline in the document, so the policy does not stop it.
  await context.addInitScript(reportViolations);
  context.on('console', (msg) => {
    const text = msg.text();
    if (text.startsWith(VIOLATION) || /Content Security Policy/i.test(text)) {
      seen.push(text);
      return;
    }
    if (msg.type() !== 'error') return;
    // A page answered with 4xx on purpose (a 404 page, a refused form, a failed sign-in) is logged
    // as a failed resource; only a failed asset is a problem.
    const url = msg.location().url;
    if (/^Failed to load resource/.test(text) && !new URL(url, 'http://x').pathname.startsWith('/assets/'))
      return;
    seen.push(`console error: ${text} (${url})`);
  });
  context.on('weberror', (err) => seen.push(`page error: ${err.error().message}`));
  context.on('requestfailed', (req) => {
    // Cut short because the page moved on (a test navigating while assets still load): not the
    // page's fault. An asset the server does not have is a 404 response, reported on the console.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    seen.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
  });
  return {
    take: () => seen.splice(0),
  };
}

/**
 * A context as users have it (the page's CSP enforced), watched. `storageState` copies a signed-in
 * session from another context.
 */
export async function userContext(
  browser: Browser,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<{ context: BrowserContext; watch: Watch }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...(storageState ? { storageState } : {}),
  });
  // Shorter than a test's time limit, so a missing element fails with playwright's own message.
  context.setDefaultTimeout(10_000);
  return { context, watch: await watchContext(context) };
}

/** Follows a one-time link and sets a password; lands signed in on `landing`. */
export async function acceptLink(page: Page, link: string, password: string, landing: RegExp): Promise<void> {
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  await page.getByLabel('Password (at least 12 characters)').fill(password);
  await page.getByLabel('The same password again').fill(password);
  await Promise.all([page.waitForURL(landing), page.getByRole('button', { name: /sign in/i }).click()]);
}

/** Signs in through the form; lands on `landing`. */
export async function signIn(
  page: Page,
  base: string,
  email: string,
  password: string,
  landing: RegExp,
): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(landing), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/** The hidden form token of the signed-in page. */
export async function formToken(page: Page): Promise<string> {
  return (await page.locator('input[name="_csrf"]').first().getAttribute('value')) ?? '';
}

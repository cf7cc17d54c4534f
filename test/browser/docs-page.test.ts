import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from './chromium.ts';

describe.skipIf(chromiumMissing)('/docs in a real browser', () => {
  let ctx: TestContext;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('offers both variants and renders each with its operations, offline', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${base}/docs`);
    await page.getByText('PureRank API — Variant A').first().waitFor({ timeout: 15_000 });
    for (const op of ['/vendors', '/vendors/{slug}', '/peptides', '/peptides/{slug}/vendors', '/search']) {
      await expect(page.locator('.opblock-summary-path', { hasText: op }).first().isVisible()).resolves.toBe(
        true,
      );
    }
    // The definition menu switches to Variant B.
    await page.locator('select').first().selectOption({ label: 'Variant B (/api/v1)' });
    await page.getByText('PureRank API — Variant B').first().waitFor({ timeout: 15_000 });
    for (const op of ['/vendors', '/vendors/{slug}', '/peptides/{slug}/prices', '/batches/{batchId}']) {
      await expect(page.locator('.opblock-summary-path', { hasText: op }).first().isVisible()).resolves.toBe(
        true,
      );
    }
    // Every asset came from this service: nothing was fetched (or tried) from elsewhere.
    expect(failed).toEqual([]);
    await page.screenshot({
      path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/purerank-docs.png`,
      fullPage: false,
    });
  });

  it('lets a reader expand an operation and see its parameters', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs`);
    await page.getByText('PureRank API — Variant A').first().waitFor({ timeout: 15_000 });
    await page.locator('select').first().selectOption({ label: 'Variant B (/api/v1)' });
    const op = page.locator('.opblock-summary-path', { hasText: '/batches/{batchId}' }).first();
    await op.waitFor({ timeout: 15_000 });
    await op.click();
    await page.getByText('Batch number (1..128 characters).').first().waitFor({ timeout: 5_000 });
    await expect(page.locator('.parameter__name', { hasText: 'vendor' }).first().isVisible()).resolves.toBe(
      true,
    );
  });
});

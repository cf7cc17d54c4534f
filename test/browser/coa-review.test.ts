import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coa, REGISTRY } from '../http/coa/fixtures.ts';
import { DIALECTS } from '../support/databases.ts';
import { acceptLink, chromiumMissing, launch, userContext, type Watch } from './support/browser.ts';
import { PASSWORD, type Site, startSite } from './support/site.ts';

const OPERATOR = 'reviewer@console.example';

/**
 * The operator's review queue in a real browser, on both databases: a CoA uploaded through the real
 * API (a generated PDF, POST /v1/coa/verify) waits as a pending submission with what the document
 * states; the operator approves it with the facts prefilled, and Variant B's batch lookup turns
 * `verified` over HTTP; the decision is recorded under the operator's email. A rejection asks for a
 * reason and a confirmation, and B then answers `missing`.
 */
describe.skipIf(chromiumMissing).each(DIALECTS)('the CoA review queue in a real browser (%s)', (dialect) => {
  let site: Site;
  let browser: Browser;
  let context: BrowserContext;
  let watch: Watch;
  let page: Page;
  let key: string;
  beforeAll(async () => {
    [site, browser] = await Promise.all([startSite(dialect, { records: REGISTRY }), launch()]);
    key = await site.ctx.keyFor('enterprise', 'coa-uploader');
    ({ context, watch } = await userContext(browser));
    page = await context.newPage();
    await acceptLink(page, await site.invite(OPERATOR, null, 'operator'), PASSWORD, /\/console\/reviews$/);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
  afterEach(() => {
    expect(watch.take()).toEqual([]);
  });

  /** A Semaglutide CoA for Aurora: no approved record corroborates it, so it waits for review. */
  const upload = async (batch: string): Promise<void> => {
    const form = new FormData();
    const pdf = await coa({ batch, compound: 'Semaglutide', purity: 99.3, verificationKey: `NWA-${batch}` });
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), `${batch}.pdf`);
    form.append('peptide', 'semaglutide');
    form.append('vendor', 'aurora');
    const res = await fetch(`${site.base}/v1/coa/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('pending_review');
  };
  const batchState = async (batch: string): Promise<string> => {
    const res = await site.api(`/api/v1/batches/${batch}?vendor=aurora`, key);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { state: string } }).data.state;
  };
  const section = (batch: string) => page.locator('section', { hasText: `aurora · ${batch}` });

  it('an operator approves a pending CoA; the batch lookup turns verified', async () => {
    await upload('SEM-4242');
    expect(await batchState('SEM-4242')).toBe('pending');

    await page.goto(`${site.base}/console/reviews`);
    const card = section('SEM-4242');
    await expect(card.count()).resolves.toBe(1);
    // What the document states is shown, and prefilled for the approval.
    await expect(card.getByText('coa-uploader').count()).resolves.toBeGreaterThan(0);
    await expect(card.getByLabel('Purity (%)').inputValue()).resolves.toBe('99.3');
    await expect(card.getByLabel('Lab (registry slug)').inputValue()).resolves.toBe('northwind');
    await expect(card.getByLabel('Test method').inputValue()).resolves.toBe('HPLC-UV');
    await expect(card.getByLabel('Test date').inputValue()).resolves.toBe('2026-03-12');

    await Promise.all([
      page.waitForURL(/\/console\/reviews\?done=approved/),
      card.getByRole('button', { name: 'Approve' }).click(),
    ]);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Approved');
    await expect(section('SEM-4242').count()).resolves.toBe(0);
    expect(await batchState('SEM-4242')).toBe('verified');

    // Recorded under the operator's name, where the vendor's score history shows it.
    await page.goto(`${site.base}/console/vendors/aurora`);
    await expect(page.getByText(`batch approved by ${OPERATOR}`).count()).resolves.toBeGreaterThan(0);
  });

  it('a rejection needs a reason and a confirmation; the batch lookup then answers missing', async () => {
    await upload('SEM-5151');
    await page.goto(`${site.base}/console/reviews`);
    const card = section('SEM-5151');
    const dialogs: string[] = [];
    page.once('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await card.getByLabel('Reason (required)').fill('The letterhead does not match the lab on file.');
    await card.getByRole('button', { name: 'Reject' }).click();
    // Dismissed: nothing happened.
    expect(dialogs).toEqual(['Reject batch SEM-5151 of aurora?']);
    expect(new URL(page.url()).search).toBe('');
    expect(await batchState('SEM-5151')).toBe('pending');

    page.once('dialog', (d) => void d.accept());
    await Promise.all([
      page.waitForURL(/\/console\/reviews\?done=rejected/),
      card.getByRole('button', { name: 'Reject' }).click(),
    ]);
    expect(await batchState('SEM-5151')).toBe('missing');
  });
});

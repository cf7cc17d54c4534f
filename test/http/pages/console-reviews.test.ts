import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa } from '../coa/fixtures.ts';
import { expectVerification } from '../coa/form.ts';
import {
  expectCleanMarkup,
  expectPage,
  expectRedirect,
  formFields,
  noticeOf,
  type Pages,
  pages,
  type SignedInUser,
  signIn,
} from './console-fixture.ts';

const OPERATOR = 'reviewer@example.com';

/**
 * The review queue in the console: a CoA upload that went to review is shown with what its
 * document states and what the verifier noted; approving it with the prefilled form makes it
 * evidence exactly as `purerank batches approve` does (Variant B answers verified, the score moves,
 * coa.approved is written) under the operator's email; rejecting needs a reason. Bad input and
 * stale decisions are error pages that change nothing.
 */
describe.each(DIALECTS)('console review queue (%s)', (dialect) => {
  let f: CoaFixture;
  let p: Pages;
  let operator: SignedInUser;
  let verificationId: string;

  beforeAll(async () => {
    f = await setupCoa(dialect);
    p = pages(f.ctx);
    operator = await signIn(f.ctx, OPERATOR, { role: 'operator' });
    const file = await coa({ batch: 'SEM-4242', compound: 'Semaglutide', purity: 99.3 });
    const v = expectVerification(await f.upload({ file, peptide: 'semaglutide', vendor: 'aurora' }));
    expect(v.status).toBe('pending_review');
    verificationId = v.verification_id;
  });
  afterAll(async () => f?.ctx.close());

  const score = async (slug: string): Promise<number | null> => {
    const res = await f.ctx.app.inject({ url: `/api/v1/vendors/${slug}`, headers: bearer(f.key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.score;
  };
  const queue = async () => expectPage(await p.get('/console/reviews', operator));

  it('lists each pending submission with the document’s fields, the notes, and what it lacks', async () => {
    const html = await queue();
    expectCleanMarkup(html);
    expect(html).toContain('2 pending, oldest first');
    // The upload: its id, account, verdict, what the document states and the verifier's notes.
    expect(html).toContain('SEM-4242');
    expect(html).toContain(verificationId);
    expect(html).toContain('coa-owner');
    expect(html).toContain('Northwind Analytical Laboratories');
    expect(html).toContain('Semaglutide');
    expect(html).toContain('submission_queued');
    expect(html).toMatch(/<span class="badge pending_review">pending_review<\/span>/);
    // The imported submission has no test facts: the page says which it lacks.
    expect(html).toContain('HX-4004');
    expect(html).toContain('The submission lacks: purity, lab, method, test date.');

    // Approve prefilled from the submission's record of the document.
    const form = formFields(html, '/console/reviews/approve', 'value="SEM-4242"');
    expect(form).toMatchObject({
      vendor: 'aurora',
      batch: 'SEM-4242',
      purity: '99.3',
      lab: 'northwind',
      testMethod: 'HPLC-UV',
      testedAt: '2026-03-12',
    });
  });

  it('bad input is the error page, and the submission stays pending', async () => {
    const form = formFields(await queue(), '/console/reviews/approve', 'value="SEM-4242"');
    for (const [change, expected] of [
      [{ purity: 'abc' }, /Parameter 'purity' must be a number from 0 to 100/],
      [{ purity: '100.5' }, /Parameter 'purity'/],
      [{ testedAt: '2026-02-30' }, /Parameter 'testedAt' must be a date/],
      [{ lab: 'no-such-lab' }, /lab 'no-such-lab' does not exist/],
      [{ vendor: '' }, /Parameter 'vendor' is required/],
    ] as const) {
      const res = await p.post('/console/reviews/approve', operator, { ...form, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(noticeOf(res.body)).toMatch(expected);
    }
    // A test date in the future is the write path's refusal, shown the same way.
    const future = await p.post('/console/reviews/approve', operator, { ...form, testedAt: '2027-01-01' });
    expect(future.statusCode).toBe(400);
    expect(noticeOf(future.body)).toMatch(/testedAt is in the future/);
    // An approval without the test facts (the imported submission) is refused by the use case.
    const bare = await p.post('/console/reviews/approve', operator, { vendor: 'helix', batch: 'HX-4004' });
    expect(bare.statusCode).toBe(400);
    expect(noticeOf(bare.body)).toMatch(/an approved batch needs purity, lab, testMethod, testedAt/);
    // A rejection needs a reason.
    const noReason = await p.post('/console/reviews/reject', operator, {
      vendor: 'aurora',
      batch: 'SEM-4242',
      reason: '   ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noticeOf(noReason.body)).toMatch(/Parameter 'reason' is required/);
    // Unknown batch or vendor: the 404 page.
    for (const target of [
      { vendor: 'aurora', batch: 'NOPE-1' },
      { vendor: 'nobody', batch: 'SEM-4242' },
    ]) {
      const res = await p.post('/console/reviews/approve', operator, { ...form, ...target });
      expect(res.statusCode).toBe(404);
    }
    expect(await f.pendingBatchIds()).toEqual(expect.arrayContaining(['aurora/SEM-4242', 'helix/HX-4004']));
    expect(await f.batchState('SEM-4242', 'aurora')).toBe('pending');
  });

  it('approving with the prefilled form: B answers verified, the score moves, coa.approved, the operator’s email recorded', async () => {
    const before = await score('aurora');
    const seen = (await f.events()).length;
    const form = formFields(await queue(), '/console/reviews/approve', 'value="SEM-4242"');
    const res = await p.post('/console/reviews/approve', operator, form);
    const location = expectRedirect(res, /^\/console\/reviews\?done=approved/);

    expect(await f.batchState('SEM-4242', 'aurora')).toBe('verified');
    const after = await score('aurora');
    expect(after).not.toBe(before);
    const fresh = (await f.events()).slice(seen);
    expect(fresh.find((e) => e.type === 'coa.approved')?.data).toMatchObject({
      vendor_slug: 'aurora',
      batch_id: 'SEM-4242',
      purity: 99.3,
      lab: 'northwind',
      test_method: 'HPLC-UV',
      tested_at: '2026-03-12T00:00:00.000Z',
    });
    // Who decided: the score history's reason names the operator, as --as does on the CLI.
    const v = await f.ctx.container.operator.vendor('aurora');
    expect(v.history.at(-1)).toMatchObject({ score: after, reason: `batch approved by ${OPERATOR}` });

    const page = expectPage(await p.get(location, operator));
    expect(noticeOf(page)).toContain('Approved');
    expect(noticeOf(page)).toContain(`Score ${before} → ${after}`);
    expect(page).not.toContain('value="SEM-4242"');
    expect(page).toContain('1 pending');

    // The uploader's verification follows the decision.
    const read = await f.get(verificationId);
    expect(read.json().status).toBe('verified');
  });

  it('approving an edited form writes what the operator typed', async () => {
    const file = await coa({ batch: 'SEM-5151', compound: 'Semaglutide', purity: 98.9 });
    expectVerification(await f.upload({ file, peptide: 'semaglutide', vendor: 'aurora' }));
    const form = formFields(await queue(), '/console/reviews/approve', 'value="SEM-5151"');
    const res = await p.post('/console/reviews/approve', operator, {
      ...form,
      purity: '98.5',
      testMethod: 'HPLC-MS',
      lab: 'meridian',
      testedAt: '2026-03-10',
    });
    expectRedirect(res, /done=approved/);
    const approved = (await f.events()).filter((e) => e.type === 'coa.approved').at(-1);
    expect(approved?.data).toMatchObject({
      batch_id: 'SEM-5151',
      purity: 98.5,
      lab: 'meridian',
      test_method: 'HPLC-MS',
      tested_at: '2026-03-10T00:00:00.000Z',
    });
  });

  it('a decided batch cannot be decided again (409 page), and its event is not written twice', async () => {
    const seen = (await f.events()).length;
    const res = await p.post('/console/reviews/approve', operator, {
      vendor: 'aurora',
      batch: 'SEM-4242',
      purity: '99.3',
    });
    expect(res.statusCode).toBe(409);
    expect(noticeOf(res.body)).toMatch(/not pending/);
    const rejected = await p.post('/console/reviews/reject', operator, {
      vendor: 'aurora',
      batch: 'SEM-4242',
      reason: 'changed my mind',
    });
    expect(rejected.statusCode).toBe(409);
    expect((await f.events()).length).toBe(seen);
    expect(await f.batchState('SEM-4242', 'aurora')).toBe('verified');
  });

  it('rejecting with a reason: coa.rejected is written and the submission leaves the queue', async () => {
    const seen = (await f.events()).length;
    const html = await queue();
    const form = formFields(html, '/console/reviews/reject', 'value="HX-4004"');
    expect(html).toContain('data-confirm="Reject batch HX-4004 of helix?"');
    const res = await p.post('/console/reviews/reject', operator, { ...form, reason: 'lab never issued it' });
    expectRedirect(res, /^\/console\/reviews\?done=rejected/);
    const fresh = (await f.events()).slice(seen);
    expect(fresh.map((e) => e.type)).toEqual(['coa.rejected']);
    expect(fresh[0]?.data).toMatchObject({ vendor_slug: 'helix', batch_id: 'HX-4004' });
    expect(await f.pendingBatchIds()).not.toContain('helix/HX-4004');
    expect(await f.batchState('HX-4004', 'helix')).toBe('missing');
    const after = expectPage(await p.get('/console/reviews', operator));
    expect(after).toContain('No submission is waiting for review.');
  });

  it('each decision is in the decision log with who, when and why, a rejection that moved no score too', async () => {
    // The rejection above moved no score: no score-history entry names the operator.
    expect((await f.ctx.container.operator.vendor('helix')).history.map((h) => h.reason)).not.toContain(
      `batch rejected by ${OPERATOR}`,
    );
    const log = await f.ctx.container.operator.actions({
      kinds: ['batch.approved', 'batch.rejected'],
      limit: 10,
    });
    expect(log.map((a) => [a.action, a.vendorSlug, a.subject, a.actor, a.reason])).toEqual([
      ['batch.rejected', 'helix', 'HX-4004', OPERATOR, 'lab never issued it'],
      ['batch.approved', 'aurora', 'SEM-5151', OPERATOR, null],
      ['batch.approved', 'aurora', 'SEM-4242', OPERATOR, null],
    ]);
    const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

    // Under the queue: the latest decisions, newest first.
    const html = await queue();
    expectCleanMarkup(html);
    const recent = sectionOf(html, 'Recent decisions');
    expect(recent.indexOf('HX-4004')).toBeLessThan(recent.indexOf('SEM-4242'));
    expect(recent).toContain('Rejected batch HX-4004 of');
    expect(recent).toContain('lab never issued it');
    expect(recent).toContain(OPERATOR);
    expect(recent).toContain(when(log[0]!.at));
    expect(recent).toMatch(
      /Approved batch SEM-4242 of semaglutide \(99\.3 %, northwind, HPLC-UV, 2026-03-12\); score \S+ → \d+/,
    );

    // On the vendor's page.
    const helix = expectPage(await p.get('/console/vendors/helix', operator));
    expectCleanMarkup(helix);
    const decisions = sectionOf(helix, 'Decisions');
    expect(decisions).toContain('batch.rejected');
    expect(decisions).toContain('lab never issued it');
    expect(decisions).toContain(OPERATOR);
  });

  it('a reason over 500 characters is refused and nothing is decided or recorded', async () => {
    const file = await coa({ batch: 'SEM-6060', compound: 'Semaglutide', purity: 99.1 });
    expectVerification(await f.upload({ file, peptide: 'semaglutide', vendor: 'aurora' }));
    const before = await f.ctx.container.operator.actions({ limit: 200 });
    const res = await p.post('/console/reviews/reject', operator, {
      vendor: 'aurora',
      batch: 'SEM-6060',
      reason: 'r'.repeat(501),
    });
    expect(res.statusCode).toBe(400);
    expect(noticeOf(res.body)).toMatch(/Parameter 'reason' must be at most 500 characters/);
    expect(await f.batchState('SEM-6060', 'aurora')).toBe('pending');
    expect(await f.ctx.container.operator.actions({ limit: 200 })).toEqual(before);
  });
});

/** The markup after an h2 up to the next h2 (or the end). */
function sectionOf(html: string, heading: string): string {
  const m = new RegExp(`<h2>${heading}</h2>([\\s\\S]*?)(?:<h2\\b|$)`).exec(html);
  expect(m, `a section "${heading}"`).not.toBeNull();
  return m![1]!;
}

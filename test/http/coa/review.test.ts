import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, dayIso, OWNER, setupCoa, sha256, TEST_DAY } from './fixtures.ts';
import { codes, expectVerification, type VerificationBody } from './form.ts';

interface PendingOut {
  vendorSlug: string;
  batchId: string;
  peptideSlug: string;
  status: string;
  purity: number | null;
  lab: string | null;
  testMethod: string | null;
  testedAt: string | null;
  source: string | null;
  submittedAt: string | null;
  uploads: {
    verificationId: string;
    account: string;
    status: string;
    confidence: number;
    notes: { code: string; message: string }[];
    extracted: Record<string, unknown> | null;
    sha256: string;
    filePath: string | null;
  }[];
}

/**
 * The review queue: a pending_review upload is a pending submission the operator sees (with what
 * the document states and what the verifier noted) and decides. Approval makes it an approved
 * record — B answers verified, the vendor is recomputed, coa.approved is written — and rejection
 * writes coa.rejected and leaves B answering missing. The verification shows the decision.
 */
describe.each(DIALECTS)('CoA review queue (%s)', (dialect) => {
  let f: CoaFixture;
  let other: string;
  beforeAll(async () => {
    f = await setupCoa(dialect);
    other = await f.ctx.keyFor('enterprise', 'coa-second-account');
  });
  afterAll(async () => f?.ctx.close());

  const pending = async (vendor: string, batch: string): Promise<PendingOut | undefined> => {
    const res = await f.admin('GET', '/batches/pending?limit=200');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as PendingOut[]).find((b) => b.vendorSlug === vendor && b.batchId === batch);
  };
  const score = async (slug: string): Promise<number | null> => {
    const res = await f.ctx.app.inject({ url: `/api/v1/vendors/${slug}`, headers: bearer(f.key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.score;
  };

  const semaglutide = (batch: string, purity = 99.3) =>
    coa({ batch, compound: 'Semaglutide', purity, verificationKey: `NWA-${batch}` });

  let approvedFile: Uint8Array;
  let first: VerificationBody;

  it('a pending_review upload is listed with its facts, the upload, its extracted fields and notes', async () => {
    approvedFile = await semaglutide('SEM-4242');
    first = expectVerification(
      await f.upload({ file: approvedFile, peptide: 'semaglutide', vendor: 'aurora' }),
    );
    expect(first).toMatchObject({
      status: 'pending_review',
      review: { state: 'pending', vendor: 'aurora', batch_id: 'SEM-4242' },
    });

    const b = await pending('aurora', 'SEM-4242');
    expect(b).toMatchObject({
      peptideSlug: 'semaglutide',
      status: 'pending',
      purity: 99.3,
      lab: 'northwind',
      testMethod: 'HPLC-UV',
      testedAt: dayIso(TEST_DAY),
      source: 'CoA upload',
      submittedAt: first.created_at,
    });
    expect(b?.uploads).toHaveLength(1);
    expect(b?.uploads[0]).toMatchObject({
      verificationId: first.verification_id,
      account: OWNER,
      status: 'pending_review',
      confidence: first.confidence,
      notes: first.notes,
      sha256: sha256(approvedFile),
      filePath: null,
      extracted: {
        batch: 'SEM-4242',
        compound: 'Semaglutide',
        purity: 99.3,
        lab: 'Northwind Analytical Laboratories',
      },
    });
  });

  it("another account's upload of the same batch joins the submission (no second one)", async () => {
    // A minute later, so "oldest first" has an order to show (uploads in the same millisecond tie).
    f.ctx.clock.set(f.ctx.clock.now() + 60_000);
    const again = expectVerification(
      await f.upload(
        { file: await semaglutide('SEM-4242', 99.4), peptide: 'semaglutide', vendor: 'aurora' },
        other,
      ),
    );
    expect(again).toMatchObject({
      status: 'pending_review',
      review: { state: 'pending', vendor: 'aurora', batch_id: 'SEM-4242' },
    });
    expect(codes(again)).toContain('submission_exists');
    const b = await pending('aurora', 'SEM-4242');
    expect(b?.uploads.map((u) => u.account)).toEqual([OWNER, 'coa-second-account']);
    expect((await f.pendingBatchIds()).filter((id) => id === 'aurora/SEM-4242')).toHaveLength(1);
  });

  it("approving: B answers verified, the vendor's score moves, coa.approved is written, the verification shows it", async () => {
    const before = await score('aurora');
    const seen = (await f.events()).length;
    const res = await f.admin('POST', '/vendors/aurora/batches/SEM-4242/approve');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().batch).toMatchObject({
      batchId: 'SEM-4242',
      status: 'approved',
      purity: 99.3,
      lab: 'northwind',
    });

    expect(await f.batchState('SEM-4242', 'aurora')).toBe('verified');
    const after = await score('aurora');
    // Semaglutide was the one listed peptide of Aurora's without an approved CoA: coverage 2/3 → 3/3.
    expect(after).not.toBe(before);
    expect(res.json().scoreChanges).toEqual([{ vendorSlug: 'aurora', previous: before, next: after }]);

    const fresh = (await f.events()).slice(seen);
    const approved = fresh.find((e) => e.type === 'coa.approved');
    expect(approved?.data).toMatchObject({
      vendor_slug: 'aurora',
      batch_id: 'SEM-4242',
      peptide_slug: 'semaglutide',
      purity: 99.3,
    });
    expect(fresh.some((e) => e.type === 'score.changed')).toBe(true);
    expect(await pending('aurora', 'SEM-4242')).toBeUndefined();

    const read = await f.get(first.verification_id);
    expect(read.statusCode).toBe(200);
    // Decided again now that the submission is a record (same id, not read again): verified.
    expect(read.json()).toMatchObject({
      verification_id: first.verification_id,
      status: 'verified',
      purity_verified: true,
      review: { state: 'approved', vendor: 'aurora', batch_id: 'SEM-4242' },
    });
    // The same upload again answers the same, current verdict.
    const again = expectVerification(
      await f.upload({ file: approvedFile, peptide: 'semaglutide', vendor: 'aurora' }),
    );
    expect(again).toMatchObject({ verification_id: first.verification_id, status: 'verified' });
  });

  it('the approved submission is now a record: the same document, uploaded by a third account, is verified', async () => {
    const third = await f.ctx.keyFor('enterprise', 'coa-third-account');
    const v = expectVerification(
      await f.upload({ file: approvedFile, peptide: 'semaglutide', vendor: 'aurora' }, third),
    );
    expect(v).toMatchObject({ status: 'verified', purity_verified: true, peptide_match: true });
    expect(v.verification_id).not.toBe(first.verification_id);
  });

  it('rejecting: coa.rejected is written, B answers missing, the verification shows it', async () => {
    const file = await semaglutide('SEM-5151');
    const v = expectVerification(await f.upload({ file, peptide: 'semaglutide', vendor: 'aurora' }));
    expect(v.status).toBe('pending_review');
    expect(await f.batchState('SEM-5151', 'aurora')).toBe('pending');
    const before = await score('aurora');
    const seen = (await f.events()).length;

    const res = await f.admin('POST', '/vendors/aurora/batches/SEM-5151/reject');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().batch).toMatchObject({ batchId: 'SEM-5151', status: 'rejected' });

    expect(await f.batchState('SEM-5151', 'aurora')).toBe('missing');
    expect(await score('aurora')).toBe(before);
    const fresh = (await f.events()).slice(seen);
    expect(fresh.map((e) => e.type)).toEqual(['coa.rejected']);
    expect(fresh[0]?.data).toMatchObject({ vendor_slug: 'aurora', batch_id: 'SEM-5151' });
    expect(await pending('aurora', 'SEM-5151')).toBeUndefined();

    // Decided again: the batch is now rejected on file.
    const read = await f.get(v.verification_id);
    expect(read.json()).toMatchObject({
      verification_id: v.verification_id,
      status: 'rejected',
      review: { state: 'rejected', vendor: 'aurora', batch_id: 'SEM-5151' },
    });
    expect(codes(read.json())).toContain('batch_rejected_on_file');
  });

  it('the rejected batch is a forgery signal for a later upload of it', async () => {
    const v = expectVerification(
      await f.upload(
        { file: await semaglutide('SEM-5151'), peptide: 'semaglutide', vendor: 'aurora' },
        other,
      ),
    );
    expect(v.status).toBe('rejected');
    expect(codes(v)).toContain('batch_rejected_on_file');
    expect(await f.batchState('SEM-5151', 'aurora')).toBe('missing');
  });
});

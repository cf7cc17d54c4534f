import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../support/coa/make-coa.ts';
import { encryptedPdf, imageOnlyPdf, truncatedPdf } from '../../support/coa/odd-pdfs.ts';
import { buildPdf, HELVETICA, stream, textContent } from '../../support/coa/raw-pdf.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, expectStored, MERIDIAN_VERIFY, setupCoa, TEST_DAY } from './fixtures.ts';
import { codes, expectVerification, type VerificationBody } from './form.ts';

/** A one-page PDF with a text layer that is not a CoA (an invoice). */
const invoicePdf = () =>
  buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    HELVETICA,
    stream(
      '',
      textContent(['INVOICE 2026-0413', 'Aurora Peptide Works', 'Shipping: 2 x vials', 'Total: $120.00']),
    ),
  ]);

/**
 * The decision table (src/core/coa/decide.ts) through the endpoint, one realistic document per row,
 * against the registry of fixtures.ts. Every answer is also read back with GET.
 */
describe.each(DIALECTS)('POST /v1/coa/verify: statuses (%s)', (dialect) => {
  let f: CoaFixture;
  beforeAll(async () => {
    f = await setupCoa(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const verify = async (...args: Parameters<CoaFixture['upload']>): Promise<VerificationBody> => {
    const v = expectVerification(await f.upload(...args));
    await expectStored(f, v);
    return v;
  };

  describe('verified: an approved record corroborates every fact', () => {
    it('same batch, peptide (by alias spelling), lab, purity and vendor', async () => {
      const v = await verify({
        file: await coa({ batch: 'NW-1001', compound: 'BPC-157', purity: 99.2 }),
        peptide: 'BPC157',
        batch_id: 'nw-1001',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({
        status: 'verified',
        peptide_match: true,
        purity_verified: true,
        purity_claim: '99.2%',
        peptide: 'bpc-157',
        vendor: 'aurora',
        lab_verification_url: 'https://verify.northwind-labs.example/coa?code=NWA-7K2P-91QX',
      });
      expect(v.confidence).toBeGreaterThanOrEqual(0.9);
      expect(codes(v)).toContain('record_corroborates');
      expect(v.review).toBeUndefined();
      expect(v.extracted).toEqual({
        lab: 'Northwind Analytical Laboratories',
        batch: 'NW-1001',
        compound: 'BPC-157',
        test_date: TEST_DAY,
        test_date_text: TEST_DAY,
        method: 'HPLC-UV',
        purity: 99.2,
        quantity: '10.13 mg',
        label_claim: '10 mg',
        identity: 'Conforms',
        client: 'Aurora Peptide Works',
        verification_key: 'NWA-7K2P-91QX',
        verification_url: 'https://verify.northwind-labs.example/coa',
      });
    });

    it('another layout, the vendor taken from the client line, purity 0.1 points off: verified, the lab page without a key', async () => {
      const v = await verify({
        file: await coa(
          { batch: 'MR-2002', compound: 'TB-500 (Thymosin Beta-4)', purity: 98.8 },
          TEMPLATES.meridian,
        ),
        peptide: 'Thymosin Beta-4',
      });
      expect(v).toMatchObject({
        status: 'verified',
        peptide_match: true,
        purity_verified: true,
        peptide: 'tb-500',
        vendor: 'aurora',
        lab_verification_url: MERIDIAN_VERIFY,
      });
      expect(v.extracted).toMatchObject({ batch: 'MR-2002', purity: 98.8, test_date: TEST_DAY });
    });

    it('purity exactly the tolerance (0.1 points) away is still verified; a little more is not', async () => {
      const v = await verify({
        file: await coa({ batch: 'NW-1001', purity: 99.3 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'verified', purity_verified: true });
      const off = await verify({
        file: await coa({ batch: 'NW-1001', purity: 99.35 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(off).toMatchObject({ status: 'mismatch', purity_verified: false });
      expect(codes(off)).toContain('purity_differs');
    });
    it('no vendor asked, the client unknown: the one vendor with the batch on file is inferred', async () => {
      const v = await verify({
        file: await coa({ batch: 'HX-3003', purity: 99.0, client: 'Nobody Trading Ltd' }),
        peptide: 'bpc-157',
      });
      expect(v).toMatchObject({ status: 'verified', vendor: 'helix', purity_verified: true });
      expect(codes(v)).toContain('vendor_inferred');
    });

    it('the peptide in full-width characters is the same peptide (NFKC)', async () => {
      const v = await verify({
        file: await coa({ batch: 'NW-1001' }),
        peptide: 'ＢＰＣ－１５７',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'verified', peptide: 'bpc-157' });
    });
  });

  describe('mismatch: the document contradicts the request or the record', () => {
    it('wrong compound for `peptide`', async () => {
      const v = await verify({
        file: await coa({ batch: 'MM-1', compound: 'TB-500' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'mismatch', peptide_match: false, purity_verified: false });
      expect(codes(v)).toContain('compound_mismatch');
      expect(v.confidence).toBeGreaterThanOrEqual(0.8);
    });

    it('wrong batch for `batch_id`', async () => {
      const v = await verify({
        file: await coa({ batch: 'NW-1001' }),
        peptide: 'bpc-157',
        batch_id: 'NW-9999',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'mismatch', peptide_match: true });
      expect(codes(v)).toContain('batch_mismatch');
    });

    it('purity 0.6 points off the record', async () => {
      const v = await verify({
        file: await coa({ batch: 'NW-1001', purity: 98.6 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({
        status: 'mismatch',
        peptide_match: true,
        purity_verified: false,
        purity_claim: '98.6%',
      });
      expect(codes(v)).toContain('purity_differs');
    });

    it('a lab other than the one on file', async () => {
      // BP-5005 is on file as tested by Bluepoint; this document is Northwind's.
      const v = await verify({
        file: await coa({ batch: 'BP-5005', purity: 99.1 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v.status).toBe('mismatch');
      expect(codes(v)).toContain('lab_differs');
    });

    it('a test date other than the one on file', async () => {
      const v = await verify({
        file: await coa({ batch: 'NW-1001', testDate: '2026-03-20' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v.status).toBe('mismatch');
      expect(codes(v)).toContain('test_date_differs');
    });
  });

  describe('rejected: forgery signals', () => {
    it('purity above 100%', async () => {
      const v = await verify({
        file: await coa({ batch: 'RJ-1', purity: 100.4 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'rejected', purity_claim: '100.4%', purity_verified: false });
      expect(codes(v)).toContain('purity_impossible');
      expect(v.confidence).toBeGreaterThanOrEqual(0.9);
    });

    it('a test date in the future (T0 is 2026-06-01)', async () => {
      const v = await verify({
        file: await coa({ batch: 'RJ-2', testDate: '2026-06-10' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v.status).toBe('rejected');
      expect(v.extracted.test_date).toBe('2026-06-10');
      expect(codes(v)).toContain('test_date_future');
    });

    it('a lab the registry flags', async () => {
      const v = await verify({
        file: await coa({ batch: 'RJ-3' }, TEMPLATES.kovalent),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v.status).toBe('rejected');
      expect(v.extracted.lab).toBe('Kovalent Analytik GmbH');
      expect(codes(v)).toContain('lab_flagged');
    });

    it('the batch on file belongs to another vendor', async () => {
      const v = await verify({
        file: await coa({ batch: 'HX-3003', purity: 99.0 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v.status).toBe('rejected');
      expect(codes(v)).toContain('batch_other_vendor');
    });

    it('the batch on file is another peptide', async () => {
      // NW-1001 is Aurora's BPC-157; this document says it is TB-500.
      const v = await verify({
        file: await coa({ batch: 'NW-1001', compound: 'TB-500' }),
        peptide: 'tb-500',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'rejected', peptide_match: true });
      expect(codes(v)).toContain('batch_other_peptide');
    });

    it('an unknown lab that is the vendor itself', async () => {
      const v = await verify({
        file: await coa({ batch: 'ACME-77', lab: 'Acme Peptides QC Lab', client: 'Acme Peptides' }),
        peptide: 'bpc-157',
        vendor: 'acme',
      });
      expect(v.status).toBe('rejected');
      expect(v.extracted.lab).toBe('Acme Peptides QC Lab');
      expect(codes(v)).toContain('lab_self_issued');
    });

    it('a batch number only awaiting review for another vendor is no evidence: queued for this one', async () => {
      // A pending submission is an unreviewed claim (it may squat the number); only approved
      // records speak against a document.
      const v = await verify({ file: await coa({ batch: 'HX-4004' }), peptide: 'bpc-157', vendor: 'aurora' });
      expect(v.status).toBe('pending_review');
      expect(codes(v)).toContain('submission_queued');
      expect(await f.batchState('HX-4004', 'aurora')).toBe('pending');
    });

    it('nothing is queued for a rejected document', async () => {
      expect(await f.batchState('RJ-1')).toBe('missing');
      expect(await f.batchState('ACME-77')).toBe('missing');
    });
  });

  describe('pending_review: plausible, no record on file', () => {
    it('queued for the vendor of the request; B answers pending', async () => {
      expect(await f.batchState('NEW-7001')).toBe('missing');
      const v = await verify({
        file: await coa({ batch: 'NEW-7001', purity: 99.4 }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({
        status: 'pending_review',
        peptide_match: true,
        purity_verified: false,
        vendor: 'aurora',
        review: { state: 'pending', vendor: 'aurora', batch_id: 'NEW-7001' },
      });
      expect(codes(v)).toContain('submission_queued');
      expect(v.confidence).toBeGreaterThan(0);
      expect(v.confidence).toBeLessThan(0.9);
      expect(await f.batchState('NEW-7001', 'aurora')).toBe('pending');
      expect(await f.pendingBatchIds()).toContain('aurora/NEW-7001');
    });

    it('queued for the client the document names when it is a known vendor', async () => {
      const v = await verify({
        file: await coa({ batch: 'HLX-88', client: 'Helix Research Supply' }, TEMPLATES.halcyon),
        peptide: 'bpc-157',
      });
      expect(v).toMatchObject({
        status: 'pending_review',
        vendor: 'helix',
        review: { state: 'pending', vendor: 'helix', batch_id: 'HLX-88' },
      });
      expect(v.extracted.client).toBe('Helix Research Supply');
      // Halcyon is in the registry but not trusted.
      expect(codes(v)).toContain('lab_untrusted');
      expect(await f.batchState('HLX-88', 'helix')).toBe('pending');
    });

    it('no vendor and an unknown client: 400 naming `vendor` (nothing would review it), nothing kept', async () => {
      const res = await f.upload({
        file: await coa({ batch: 'ORPHAN-1', client: 'Nobody Trading Ltd' }),
        peptide: 'bpc-157',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('invalid_parameter');
      expect(res.json().error.message).toContain("Parameter 'vendor' is needed");
      expect(res.json().error.message).toContain('Nobody Trading Ltd');
      expect(await f.batchState('ORPHAN-1')).toBe('missing');
      // Named, it is queued.
      const v = await verify({
        file: await coa({ batch: 'ORPHAN-1', client: 'Nobody Trading Ltd' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'pending_review', review: { state: 'pending', vendor: 'aurora' } });
    });

    it('a batch already awaiting review for the vendor: joined, not queued again', async () => {
      const v = await verify({
        file: await coa({ batch: 'HX-4004', client: 'Helix Research Supply' }),
        peptide: 'bpc-157',
        vendor: 'helix',
      });
      expect(v).toMatchObject({
        status: 'pending_review',
        review: { state: 'pending', vendor: 'helix', batch_id: 'HX-4004' },
      });
      expect(codes(v)).toContain('submission_exists');
      expect((await f.pendingBatchIds()).filter((b) => b === 'helix/HX-4004')).toHaveLength(1);
    });

    it('a document whose client is another vendor than the one asked about: noted', async () => {
      const v = await verify({
        file: await coa({ batch: 'CLI-31', client: 'Helix Research Supply' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'pending_review', vendor: 'aurora' });
      expect(codes(v)).toContain('client_other_vendor');
    });

    it('a test date of today is plausible', async () => {
      const v = await verify({
        file: await coa({ batch: 'DAY-0', testDate: '2026-06-01' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      expect(v).toMatchObject({ status: 'pending_review', extracted: { test_date: '2026-06-01' } });
      expect(await f.batchState('DAY-0', 'aurora')).toBe('pending');
    });

    // A day inside the time-zone slack was queued as testedAt tomorrow, which the import refuses
    // (400 "testedAt is in the future"); the submission now records the test as today.
    it('a test date tomorrow (within the timezone slack) is plausible: 200, queued', async () => {
      const res = await f.upload({
        file: await coa({ batch: 'DAY-1', testDate: '2026-06-02' }),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      const v = expectVerification(res);
      expect(v.status).toBe('pending_review');
      expect(await f.batchState('DAY-1', 'aurora')).toBe('pending');
    });

    // 12/03/2026 read as 2026-12-03 is not a future date (its other reading, 12 March, is past); it
    // was queued with testedAt 2026-12-03, which the import refused (400). It now queues the past
    // reading.
    it('an ambiguous date with one reading in the future (12/03/2026): 200, not a 400', async () => {
      const res = await f.upload({
        file: await coa({ batch: 'AMB-12', testDate: '2026-12-03' }, TEMPLATES.halcyon),
        peptide: 'bpc-157',
        vendor: 'aurora',
      });
      const v = expectVerification(res);
      expect(v.extracted.test_date_text).toBe('12/03/2026');
      expect(['pending_review', 'rejected']).toContain(v.status);
    });

    it('editing software in the metadata is a note that lowers confidence', async () => {
      const facts = { batch: 'EDIT-1', purity: 99.3 };
      const clean = await verify({ file: await coa(facts), peptide: 'bpc-157', vendor: 'helix' });
      const edited = await verify({
        file: await coa({ ...facts, batch: 'EDIT-2' }, undefined, {
          producer: 'Adobe Photoshop 25.1 (Windows)',
        }),
        peptide: 'bpc-157',
        vendor: 'helix',
      });
      expect(clean.status).toBe('pending_review');
      expect(edited.status).toBe('pending_review');
      expect(codes(clean)).not.toContain('pdf_editing_software');
      expect(codes(edited)).toContain('pdf_editing_software');
      expect(edited.notes.find((n) => n.code === 'pdf_editing_software')?.message).toContain('Photoshop');
      expect(edited.confidence).toBeLessThan(clean.confidence);
    });

    it('a file modified well after it was created and after the test is a note too', async () => {
      const v = await verify({
        file: await coa({ batch: 'EDIT-3' }, undefined, {
          creationDate: new Date('2026-03-13T15:30:00Z'),
          modificationDate: new Date('2026-05-20T10:00:00Z'),
        }),
        peptide: 'bpc-157',
        vendor: 'helix',
      });
      expect(v.status).toBe('pending_review');
      expect(codes(v)).toContain('pdf_modified_after_test');
    });
  });

  describe('unreadable', () => {
    const unreadable = (v: VerificationBody, code: string) => {
      expect(v).toMatchObject({
        status: 'unreadable',
        confidence: 0,
        peptide_match: false,
        purity_verified: false,
      });
      expect(codes(v)).toEqual([code]);
      expect(v.review).toBeUndefined();
      expect(v.lab_verification_url).toBeUndefined();
    };

    it('a scan without a text layer', async () => {
      const v = await verify({ file: await imageOnlyPdf(), peptide: 'bpc-157', vendor: 'aurora' });
      unreadable(v, 'unreadable_no_text');
      expect(Object.values(v.extracted).every((x) => x === null)).toBe(true);
    });

    it('an encrypted file', async () => {
      unreadable(
        await verify({ file: encryptedPdf(), peptide: 'bpc-157', vendor: 'aurora' }),
        'unreadable_encrypted',
      );
    });

    it('a file cut short', async () => {
      const v = await verify({ file: await truncatedPdf(), peptide: 'bpc-157', vendor: 'aurora' });
      expect(v.status).toBe('unreadable');
      expect(v.confidence).toBe(0);
      expect(codes(v)).toHaveLength(1);
      expect(['unreadable_corrupt', 'fields_missing']).toContain(codes(v)[0]);
    });

    it('a readable PDF that states no CoA fields', async () => {
      unreadable(
        await verify({ file: invoicePdf(), peptide: 'bpc-157', vendor: 'aurora' }),
        'fields_missing',
      );
    });

    it('nothing was queued by any of them', async () => {
      expect(await f.pendingBatchIds()).not.toContain('aurora/ENC-2231');
    });
  });

  // Last: it moves the clock.
  describe('later', () => {
    it('a corroborated document of a batch tested more than BATCH_STALE_DAYS ago: verified, with a note', async () => {
      f.ctx.clock.set(Date.parse('2026-09-01T12:00:00Z')); // 173 days after the test
      const v = await verify({
        file: await coa({ batch: 'MR-2002', compound: 'TB-500', purity: 98.7 }, TEMPLATES.meridian),
        peptide: 'tb-500',
        vendor: 'aurora',
      });
      expect(v.status).toBe('verified');
      expect(codes(v)).toContain('record_stale');
    });
  });
});

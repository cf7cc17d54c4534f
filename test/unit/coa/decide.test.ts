import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BatchRecord } from '../../../src/core/batches/model.ts';
import { confidenceOf } from '../../../src/core/coa/confidence.ts';
import { type DecisionInput, decide } from '../../../src/core/coa/decide.ts';
import { Directory } from '../../../src/core/coa/directory.ts';
import { EMPTY_FIELDS, type ExtractedFields } from '../../../src/core/coa/model.ts';
import type { NoteCode } from '../../../src/core/coa/verification.ts';

const NOW = Date.UTC(2026, 5, 1, 12);
const BPC = { slug: 'bpc-157', name: 'BPC-157', aliases: ['BPC157'] };
const TB = { slug: 'tb-500', name: 'TB-500', aliases: ['Thymosin Beta-4'] };
const dir = new Directory(
  [BPC, TB],
  [
    {
      slug: 'meridian',
      name: 'Meridian Analytical',
      trusted: true,
      flagged: false,
      verifyUrl: 'https://meridian.example/v?k={key}',
    },
    { slug: 'cheap', name: 'Cheap Testing', trusted: false, flagged: false, verifyUrl: null },
    { slug: 'forge', name: 'Forge Labs', trusted: false, flagged: true, verifyUrl: null },
  ],
  [
    { slug: 'acme', name: 'Acme Peptides' },
    { slug: 'zen', name: 'Zen Research' },
  ],
);

const fields = (over: Partial<ExtractedFields> = {}): ExtractedFields => ({
  ...EMPTY_FIELDS,
  lab: 'Meridian Analytical Laboratories, Inc.',
  batch: 'ACM-0001',
  compound: 'BPC-157 Acetate',
  purity: 99.2,
  purityText: '99.2%',
  testDate: { iso: '2026-05-01', text: '2026-05-01', ambiguous: false },
  method: 'HPLC',
  ...over,
});

const record = (over: Partial<BatchRecord> = {}): BatchRecord => ({
  batchId: 'ACM-0001',
  status: 'approved',
  vendorSlug: 'acme',
  vendorName: 'Acme Peptides',
  vendorVerified: true,
  peptideName: 'BPC-157',
  purity: 99.3,
  labName: 'Meridian Analytical',
  testMethod: 'HPLC',
  testedAt: '2026-05-01T00:00:00.000Z',
  source: null,
  sourceUrl: null,
  submittedAt: null,
  ...over,
});

function run(opts: {
  f?: Partial<ExtractedFields>;
  records?: BatchRecord[];
  vendor?: 'acme' | 'zen' | null;
  batchId?: string | null;
  peptide?: typeof BPC;
  meta?: { producer?: string; creationDate?: string; modDate?: string };
}) {
  const input: DecisionInput = {
    request: {
      peptide: opts.peptide ?? BPC,
      batchId: opts.batchId ?? null,
      vendor: opts.vendor === undefined || opts.vendor === null ? null : dir.vendor(opts.vendor),
    },
    extraction: {
      ok: true,
      fields: fields(opts.f),
      metadata: {
        producer: opts.meta?.producer ?? 'LabWare LIMS',
        creator: null,
        creationDate: opts.meta?.creationDate ?? null,
        modDate: opts.meta?.modDate ?? null,
      },
      pageCount: 2,
    },
    directory: dir,
    records: opts.records ?? [],
    nowMs: NOW,
    staleAfterDays: 150,
  };
  return decide(input);
}

const codes = (d: ReturnType<typeof run>) => d.outcome.notes.map((n) => n.code);

describe('the CoA decision table', () => {
  it('1. unreadable: a failed read, or a document without compound, batch, purity or lab', () => {
    for (const reason of [
      'encrypted',
      'corrupt',
      'no_text',
      'too_many_pages',
      'time_limit',
      'memory_limit',
      'inflate_limit',
    ] as const) {
      const d = decide({
        request: { peptide: BPC, batchId: null, vendor: null },
        extraction: { ok: false, reason },
        directory: dir,
        records: [],
        nowMs: NOW,
        staleAfterDays: 150,
      });
      expect(d.outcome).toMatchObject({
        status: 'unreadable',
        confidence: 0,
        peptideMatch: false,
        purityVerified: false,
        extracted: null,
      });
      expect(codes(d)).toEqual([`unreadable_${reason}`]);
      expect(d.queue).toBeNull();
    }
    const d = run({ f: { lab: null, purity: null, purityText: null } });
    expect(d.outcome.status).toBe('unreadable');
    expect(d.outcome.notes[0]).toEqual({
      code: 'fields_missing',
      message: 'The document does not state its purity, lab.',
    });
  });

  it('2. rejected: each forgery signal on its own', () => {
    const cases: [Parameters<typeof run>[0], NoteCode][] = [
      [{ f: { purity: 100.4, purityText: '100.4%' }, vendor: 'acme' }, 'purity_impossible'],
      [
        { f: { testDate: { iso: '2026-07-13', text: '07/13/2026', ambiguous: false } }, vendor: 'acme' },
        'test_date_future',
      ],
      [{ f: { lab: 'Forge Labs' }, vendor: 'acme' }, 'lab_flagged'],
      [{ f: { lab: 'Acme Peptides LLC' }, vendor: 'acme' }, 'lab_self_issued'],
      [{ f: { lab: 'In-house QC Laboratory' }, vendor: 'acme' }, 'lab_self_issued'],
      [
        { vendor: 'acme', records: [record({ vendorSlug: 'zen', vendorName: 'Zen Research' })] },
        'batch_other_vendor',
      ],
      [{ vendor: 'acme', records: [record({ peptideName: 'TB-500' })] }, 'batch_other_peptide'],
      [{ vendor: 'acme', records: [record({ status: 'rejected' })] }, 'batch_rejected_on_file'],
    ];
    for (const [opts, code] of cases) {
      const d = run(opts);
      expect(d.outcome.status, code).toBe('rejected');
      expect(codes(d), code).toContain(code);
      expect(d.outcome.confidence).toBeGreaterThanOrEqual(0.75);
      expect(d.queue).toBeNull();
    }
  });

  it('an ambiguous date is in the future only when both readings are', () => {
    const past = { iso: '2026-07-01', text: '07/01/2026', ambiguous: true };
    expect(run({ f: { testDate: past }, vendor: 'acme' }).outcome.status).toBe('pending_review');
    const both = { iso: '2026-08-09', text: '08/09/2026', ambiguous: true };
    expect(run({ f: { testDate: both }, vendor: 'acme' }).outcome.status).toBe('rejected');
  });

  it('a pending submission is no evidence: another vendor or peptide pending does not reject', () => {
    const squat = [
      record({ status: 'pending', vendorSlug: 'zen', vendorName: 'Zen Research', peptideName: 'TB-500' }),
    ];
    const d = run({ vendor: 'acme', records: squat });
    expect(d.outcome.status).toBe('pending_review');
    expect(d.queue?.vendorSlug).toBe('acme');
    // And no vendor is inferred from it.
    expect(run({ records: squat }).outcome.vendorSlug).toBeNull();
  });

  it('a future date within the time-zone slack is not a signal', () => {
    expect(
      run({ f: { testDate: { iso: '2026-06-02', text: '2026-06-02', ambiguous: false } }, vendor: 'acme' })
        .outcome.status,
    ).toBe('pending_review');
  });

  it('3. mismatch: contradicting the request or the approved record', () => {
    const onFile = [record()];
    const cases: [Parameters<typeof run>[0], NoteCode][] = [
      [{ peptide: TB, vendor: 'acme' }, 'compound_mismatch'],
      [{ batchId: 'ACM-0002', vendor: 'acme' }, 'batch_mismatch'],
      [{ f: { purity: 97.9, purityText: '97.9%' }, records: onFile, vendor: 'acme' }, 'purity_differs'],
      [{ f: { lab: 'Cheap Testing' }, records: onFile, vendor: 'acme' }, 'lab_differs'],
      [
        {
          f: { testDate: { iso: '2026-04-20', text: '2026-04-20', ambiguous: false } },
          records: onFile,
          vendor: 'acme',
        },
        'test_date_differs',
      ],
    ];
    for (const [opts, code] of cases) {
      const d = run(opts);
      expect(d.outcome.status, code).toBe('mismatch');
      expect(codes(d), code).toContain(code);
    }
    expect(run({ peptide: TB, vendor: 'acme' }).outcome.peptideMatch).toBe(false);
  });

  it('a compound outside the library is a mismatch, never queued as the requested peptide', () => {
    const d = run({ vendor: 'acme', f: { compound: 'Unobtainium-9' } });
    expect(d.outcome.status).toBe('mismatch');
    expect(codes(d)).toEqual(expect.arrayContaining(['compound_mismatch', 'compound_unknown']));
    expect(d.outcome.peptideMatch).toBe(false);
    expect(d.queue).toBeNull();
  });

  it('the test day matches within one day (a UTC record, a local printed day), not two', () => {
    const rec = [record({ testedAt: '2026-05-02T04:26:00.000Z' })];
    const day = (iso: string) => ({
      f: { testDate: { iso, text: iso, ambiguous: false } },
      records: rec,
      vendor: 'acme' as const,
    });
    expect(run(day('2026-05-01')).outcome.status).toBe('verified');
    expect(run(day('2026-05-03')).outcome.status).toBe('verified');
    expect(run(day('2026-04-30')).outcome.status).toBe('mismatch');
  });

  it('joining a pending submission that states other facts says so', () => {
    const pendingRec = record({
      status: 'pending',
      purity: 97,
      labName: 'Cheap Testing',
      testedAt: '2026-03-01T00:00:00.000Z',
    });
    const d = run({ vendor: 'acme', records: [pendingRec] });
    expect(d.outcome.status).toBe('pending_review');
    const n = d.outcome.notes.find((x) => x.code === 'submission_differs');
    expect(n?.message).toBe('The submission awaiting review states another purity, lab, test date.');
    expect(d.outcome.confidence).toBeLessThan(
      run({
        vendor: 'acme',
        records: [record({ status: 'pending', purity: null, labName: null, testedAt: null })],
      }).outcome.confidence,
    );
  });

  it('an unreadable document still says whether its compound is the requested peptide', () => {
    expect(run({ f: { lab: null } }).outcome).toMatchObject({ status: 'unreadable', peptideMatch: true });
    expect(run({ f: { lab: null }, peptide: TB }).outcome.peptideMatch).toBe(false);
  });

  it('purity agrees within 0.1 point exactly, whatever the floating-point difference', () => {
    // 99.4 − 99.3 is 0.10000000000000853 in binary floating point.
    const d = run({
      vendor: 'acme',
      records: [record({ purity: 99.3 })],
      f: { purity: 99.4, purityText: '99.4%' },
    });
    expect(d.outcome).toMatchObject({ status: 'verified', purityVerified: true });
  });

  it('a rejected submission condemns only the same document: other facts are a mismatch, not a forgery', () => {
    const rejected = record({ status: 'rejected', purity: 61.3, labName: 'Cheap Testing' });
    const genuine = run({ vendor: 'acme', records: [rejected] });
    expect(genuine.outcome.status).toBe('mismatch');
    expect(codes(genuine)).toContain('batch_rejected_on_file');
    const same = run({ vendor: 'acme', records: [record({ status: 'rejected' })] });
    expect(same.outcome.status).toBe('rejected');
  });

  it('a lab name that only reduces to a shared name matches neither lab; exact names still match', () => {
    const d2 = new Directory(
      [BPC],
      [
        { slug: 'apex-labs', name: 'Apex Labs', trusted: false, flagged: true, verifyUrl: null },
        { slug: 'apex-analytical', name: 'Apex Analytical', trusted: true, flagged: false, verifyUrl: null },
      ],
      [],
    );
    expect(d2.lab('APEX ANALYTICAL')?.slug).toBe('apex-analytical');
    expect(d2.lab('Apex Labs')?.slug).toBe('apex-labs');
    expect(d2.lab('Apex Laboratories, Inc.')).toBeNull();
  });

  it('only in-house wording makes an unregistered lab self-issued', () => {
    expect(run({ vendor: 'acme', f: { lab: 'Peptide Quality Control Laboratories' } }).outcome.status).toBe(
      'pending_review',
    );
    expect(run({ vendor: 'acme', f: { lab: 'Acme internal QC lab' } }).outcome.status).toBe('rejected');
  });

  it('batch numbers compare without case or punctuation', () => {
    expect(run({ batchId: 'acm0001', vendor: 'acme' }).outcome.status).toBe('pending_review');
  });

  it('4. verified: the approved record corroborates batch, peptide, lab, purity (±0.1) and day', () => {
    const d = run({ records: [record()], vendor: 'acme', batchId: 'ACM-0001' });
    expect(d.outcome).toMatchObject({
      status: 'verified',
      peptideMatch: true,
      purityVerified: true,
      purityClaim: '99.2%',
      vendorSlug: 'acme',
    });
    expect(d.outcome.confidence).toBeGreaterThanOrEqual(0.95);
    expect(codes(d)).toEqual(['record_corroborates']);
    expect(d.queue).toBeNull();
    // The vendor is inferred when the batch is on file for one vendor only.
    const inferred = run({ records: [record()] });
    expect(inferred.outcome.status).toBe('verified');
    expect(codes(inferred)).toContain('vendor_inferred');
    // Or taken from the client line.
    expect(run({ records: [record()], f: { client: 'ACME PEPTIDES, LLC' } }).outcome.vendorSlug).toBe('acme');
  });

  it('an ambiguous printed date corroborates with either reading', () => {
    const d = run({
      records: [record({ testedAt: '2026-03-05T00:00:00.000Z' })],
      vendor: 'acme',
      f: { testDate: { iso: '2026-05-03', text: '05/03/2026', ambiguous: true } },
    });
    expect(d.outcome.status).toBe('verified');
    expect(codes(d)).toContain('test_date_ambiguous');
  });

  it('a stale record still verifies, with a note', () => {
    const d = run({
      records: [record({ testedAt: '2025-11-01T00:00:00.000Z' })],
      vendor: 'acme',
      f: { testDate: { iso: '2025-11-01', text: '2025-11-01', ambiguous: false } },
    });
    expect(d.outcome.status).toBe('verified');
    expect(codes(d)).toContain('record_stale');
  });

  it('5. pending_review: plausible, no record: queued for the vendor (given, or the client line)', () => {
    const d = run({ vendor: 'acme' });
    expect(d.outcome).toMatchObject({
      status: 'pending_review',
      purityVerified: false,
      submission: { vendorSlug: 'acme', batchId: 'ACM-0001' },
    });
    expect(d.queue).toEqual({
      vendorSlug: 'acme',
      batchId: 'ACM-0001',
      peptideSlug: 'bpc-157',
      purity: 99.2,
      labSlug: 'meridian',
      testMethod: 'HPLC',
      testedAt: '2026-05-01T00:00:00.000Z',
    });
    expect(run({ f: { client: 'Zen Research' } }).queue?.vendorSlug).toBe('zen');
    // Already pending: joins it, writes nothing.
    const joined = run({
      vendor: 'acme',
      records: [record({ status: 'pending', purity: null, labName: null, testedAt: null })],
    });
    expect(joined.queue).toBeNull();
    expect(joined.outcome.submission).toEqual({ vendorSlug: 'acme', batchId: 'ACM-0001' });
    expect(codes(joined)).toContain('submission_exists');
    // No vendor known: not queued, and said so.
    const orphan = run({});
    expect(orphan.outcome.status).toBe('pending_review');
    expect(orphan.queue).toBeNull();
    expect(codes(orphan)).toContain('vendor_unknown');
  });

  it('metadata notes lower confidence without deciding', () => {
    const clean = run({ vendor: 'acme' });
    const edited = run({
      vendor: 'acme',
      meta: {
        producer: 'Adobe Photoshop 25.0',
        creationDate: '2026-05-02T10:00:00.000Z',
        modDate: '2026-05-20T10:00:00.000Z',
      },
    });
    expect(edited.outcome.status).toBe('pending_review');
    expect(codes(edited)).toEqual(
      expect.arrayContaining(['pdf_editing_software', 'pdf_modified_after_test']),
    );
    expect(edited.outcome.confidence).toBeLessThan(clean.outcome.confidence);
    // A report first saved after the test, never edited, is normal.
    const saved = run({
      vendor: 'acme',
      meta: { creationDate: '2026-05-02T10:00:00.000Z', modDate: '2026-05-02T10:00:30.000Z' },
    });
    expect(codes(saved)).not.toContain('pdf_modified_after_test');
  });

  it('lab_verification_url puts the document key into the registry page', () => {
    expect(run({ vendor: 'acme', f: { verificationKey: 'K 12/3' } }).outcome.labVerificationUrl).toBe(
      'https://meridian.example/v?k=K%2012%2F3',
    );
    expect(run({ vendor: 'acme' }).outcome.labVerificationUrl).toBeNull();
  });
});

describe('confidence', () => {
  const all: NoteCode[] = [
    'purity_impossible',
    'test_date_future',
    'lab_flagged',
    'lab_self_issued',
    'batch_other_vendor',
    'batch_other_peptide',
    'batch_rejected_on_file',
    'pdf_editing_software',
    'lab_unknown',
    'test_date_missing',
  ];
  it('is in 0..0.99, and more forgery signals never lower a rejection', () => {
    fc.assert(
      fc.property(fc.subarray(all), fc.constantFrom(...all), (notes, extra) => {
        const c = confidenceOf('rejected', notes);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(0.99);
        expect(confidenceOf('rejected', [...notes, extra])).toBeGreaterThanOrEqual(c);
      }),
    );
  });
  it('caution notes never raise a verified or pending confidence', () => {
    fc.assert(
      fc.property(
        fc.subarray(all),
        fc.constantFrom<'verified' | 'pending_review'>('verified', 'pending_review'),
        (notes, status) => {
          const base = confidenceOf(status, [], [0.6, 0.3, 0.4]);
          expect(confidenceOf(status, notes, [0.6, 0.3, 0.4])).toBeLessThanOrEqual(base);
        },
      ),
    );
  });
});

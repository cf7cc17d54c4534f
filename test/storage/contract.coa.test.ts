import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_FIELDS } from '../../src/core/coa/model.ts';
import type { Extraction, VerificationOutcome } from '../../src/core/coa/verification.ts';
import type { StoredVerification } from '../../src/core/ports.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore } from './support.ts';

const EXTRACTION: Extraction = {
  ok: true,
  fields: {
    ...EMPTY_FIELDS,
    lab: 'Meridian Analytical',
    batch: 'B-1',
    compound: 'BPC-157',
    purity: 99.1,
    purityText: '99.1%',
  },
  metadata: { producer: 'LIMS', creator: null, creationDate: null, modDate: null },
  pageCount: 2,
};

const outcome = (over: Partial<VerificationOutcome> = {}): VerificationOutcome => ({
  status: 'pending_review',
  confidence: 0.6,
  peptideMatch: true,
  purityClaim: '99.1%',
  purityVerified: false,
  notes: [{ code: 'submission_queued', message: 'queued' }],
  extracted: EXTRACTION.ok ? EXTRACTION.fields : null,
  labVerificationUrl: null,
  peptideSlug: 'bpc-157',
  vendorSlug: 'acme',
  submission: { vendorSlug: 'acme', batchId: 'B-1' },
  ...over,
});

let seq = 0;
const row = (accountId: number, over: Partial<StoredVerification> = {}): StoredVerification => ({
  id: `ver_${(++seq).toString(16).padStart(32, '0')}`,
  accountId,
  sha256: 'a'.repeat(64),
  requestKey: 'r1',
  outcome: outcome(),
  extraction: EXTRACTION,
  filePath: null,
  createdAt: NOW_ISO,
  ...over,
});

describe.each(DIALECTS)('storage contract: CoA verifications (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await store.imports.apply(
      importBatch([
        { type: 'account', name: 'alice', plan: 'enterprise' },
        { type: 'account', name: 'bob', plan: 'enterprise' },
        { type: 'lab', slug: 'meridian', name: 'Meridian Analytical', trusted: true, flagged: false },
        {
          type: 'lab',
          slug: 'shady',
          name: 'Shady Labs',
          flagged: true,
          verifyUrl: 'https://shady.example/v/{key}',
        },
        {
          type: 'peptide',
          slug: 'bpc-157',
          name: 'BPC-157',
          category: 'healing',
          molecularWeight: '1419.5 g/mol',
          aliases: ['BPC157', 'Body Protection Compound'],
        },
        { type: 'vendor', slug: 'acme', name: 'Acme Peptides' },
        {
          type: 'batch',
          vendorSlug: 'acme',
          batchId: 'B-1',
          peptideSlug: 'bpc-157',
          status: 'pending',
          submittedAt: NOW_ISO,
        },
      ]),
      { nowIso: NOW_ISO, reason: 'test' },
    );
    alice = (await store.accounts.findByName('alice'))!.id;
    bob = (await store.accounts.findByName('bob'))!.id;
  });
  afterAll(async () => fresh?.close());

  it('reads the directory: peptides with aliases, labs with trusted/flagged/verifyUrl, vendors', async () => {
    const d = await store.coa.directory();
    expect(d.peptides).toEqual([
      {
        slug: 'bpc-157',
        name: 'BPC-157',
        aliases: expect.arrayContaining(['BPC157', 'Body Protection Compound']),
      },
    ]);
    expect(d.labs.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([
      { slug: 'meridian', name: 'Meridian Analytical', trusted: true, flagged: false, verifyUrl: null },
      {
        slug: 'shady',
        name: 'Shady Labs',
        trusted: false,
        flagged: true,
        verifyUrl: 'https://shady.example/v/{key}',
      },
    ]);
    expect(d.vendors).toEqual([{ slug: 'acme', name: 'Acme Peptides' }]);
  });

  it('the registry version moves with labs, peptides and vendors, not with a pending submission', async () => {
    const before = await store.state.read();
    await store.imports.apply(
      importBatch([
        {
          type: 'batch',
          vendorSlug: 'acme',
          batchId: 'REG-1',
          peptideSlug: 'bpc-157',
          status: 'pending',
          submittedAt: NOW_ISO,
        },
      ]),
      { nowIso: NOW_ISO, reason: 'test' },
    );
    const mid = await store.state.read();
    expect(mid.dataVersion).toBe(before.dataVersion + 1);
    expect(mid.registryVersion).toBe(before.registryVersion);
    await store.imports.apply(importBatch([{ type: 'lab', slug: 'fresh', name: 'Fresh Labs' }]), {
      nowIso: NOW_ISO,
      reason: 'test',
    });
    expect((await store.state.read()).registryVersion).toBe(before.registryVersion + 1);
  });

  it('stores a verification and finds it by upload (account, file, fields) and its extraction by file', async () => {
    const v = row(alice);
    expect(await store.coa.insert(v)).toEqual(v);
    expect(await store.coa.findUpload(alice, v.sha256, 'r1')).toEqual(v);
    expect(await store.coa.findUpload(alice, v.sha256, 'other-fields')).toBeNull();
    expect(await store.coa.findExtraction(alice, v.sha256)).toEqual(EXTRACTION);
    // Per account: another account's upload of the same file is not found.
    expect(await store.coa.findUpload(bob, v.sha256, 'r1')).toBeNull();
    expect(await store.coa.findExtraction(bob, v.sha256)).toBeNull();
  });

  it('keeps the first of two identical uploads stored at once (a race) and returns it to both', async () => {
    const first = row(alice, { sha256: 'b'.repeat(64) });
    const second = row(alice, { sha256: 'b'.repeat(64) });
    const [x, y] = await Promise.all([store.coa.insert(first), store.coa.insert(second)]);
    expect(x.id).toBe(y.id);
    expect([first.id, second.id]).toContain(x.id);
  });

  it('keeps an unreadable extraction as its reason', async () => {
    const v = row(alice, {
      sha256: 'c'.repeat(64),
      extraction: { ok: false, reason: 'encrypted' },
      outcome: outcome({ status: 'unreadable', confidence: 0, extracted: null, submission: null }),
    });
    await store.coa.insert(v);
    expect(await store.coa.findExtraction(alice, v.sha256)).toEqual({ ok: false, reason: 'encrypted' });
  });

  it('gets a verification for its account only, with the review state of its submission now', async () => {
    const v = row(alice, { sha256: 'd'.repeat(64) });
    await store.coa.insert(v);
    const got = await store.coa.get(alice, v.id);
    expect(got).toMatchObject({ id: v.id, review: { state: 'pending', vendorSlug: 'acme', batchId: 'B-1' } });
    expect(await store.coa.get(bob, v.id)).toBeNull();
    expect(await store.coa.get(alice, 'ver_nope')).toBeNull();
    // The operator approves the batch: the verification reads its new state.
    await store.imports.apply(
      importBatch([
        {
          type: 'batch',
          vendorSlug: 'acme',
          batchId: 'B-1',
          peptideSlug: 'bpc-157',
          status: 'approved',
          purity: 99.1,
          lab: 'meridian',
          testMethod: 'HPLC',
          testedAt: NOW_ISO,
        },
      ]),
      { nowIso: NOW_ISO, reason: 'test' },
    );
    expect((await store.coa.get(alice, v.id))?.review).toEqual({
      state: 'approved',
      vendorSlug: 'acme',
      batchId: 'B-1',
    });
    const none = row(alice, { sha256: 'e'.repeat(64), outcome: outcome({ submission: null }) });
    await store.coa.insert(none);
    expect((await store.coa.get(alice, none.id))?.review).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitBatch } from '../../src/core/import/import-data.ts';
import { batchKey } from '../../src/core/import/records.ts';
import type { DataState } from '../../src/core/ports.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { ALPHA_PILLARS, ALPHA_SCORE, CATALOG } from './catalog-dataset.ts';
import { dumpTables, type FreshStore, importBatch, NOW_ISO, openFreshStore } from './support.ts';

describe.each(DIALECTS)('storage contract: import then read back (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let before: DataState;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    before = await store.state.read();
  });
  afterAll(async () => fresh?.close());

  it('applies one record of every type, counting per type and bumping both versions once', async () => {
    const counts = await store.imports.apply(importBatch(CATALOG), { nowIso: NOW_ISO, reason: 'import' });
    expect(counts).toEqual({
      account: 2,
      lab: 2,
      peptide: 2,
      vendor: 2,
      claim: 1,
      price: 3,
      batch: 5,
      review: 1,
      reply: 1,
      override: 5,
    });
    expect(await store.state.read()).toEqual({
      dataVersion: before.dataVersion + 1,
      keysVersion: before.keysVersion + 1,
      // Labs, peptides and vendors were written: the CoA registry moves too.
      registryVersion: before.registryVersion + 1,
      dataUpdatedAt: NOW_ISO,
    });
  });

  it('imports accounts that the key store can see', async () => {
    expect(await store.accounts.findByName('custom-co')).toMatchObject({
      plan: 'custom',
      rateLimitA: 10,
      rateLimitB: 20,
    });
    expect(await store.accounts.findByName('acme')).toMatchObject({
      plan: 'pro',
      rateLimitA: null,
      createdAt: NOW_ISO,
    });
  });

  it('lists vendors with effective pillars, composite and the mean purity of approved batches', async () => {
    const vendors = await store.catalog.listVendors();
    expect(vendors.map((v) => v.slug).sort()).toEqual(['alpha', 'beta']);
    const alpha = vendors.find((v) => v.slug === 'alpha')!;
    expect(alpha).toEqual({
      id: expect.any(Number),
      slug: 'alpha',
      name: 'Alpha Peptides',
      location: 'Canada',
      description: 'Third-party tested.',
      website: 'https://alpha.example',
      listingPlan: 'premium',
      verified: true,
      pending: false,
      verifiedAt: '2026-01-15T00:00:00.000Z',
      claimed: true,
      pillars: ALPHA_PILLARS,
      score: ALPHA_SCORE,
      purity: expect.closeTo(98.9, 6),
    });
  });

  it('gives a minimal vendor the documented defaults and leaves it unscored (and so pending)', async () => {
    const beta = (await store.catalog.listVendors()).find((v) => v.slug === 'beta')!;
    expect(beta).toEqual({
      id: expect.any(Number),
      slug: 'beta',
      name: 'Beta Labs',
      location: '',
      description: '',
      website: null,
      listingPlan: 'free',
      verified: false,
      pending: true,
      verifiedAt: null,
      claimed: false,
      pillars: null,
      score: null,
      purity: null,
    });
  });

  it('returns a vendor detail with its score history, and null for an unknown slug', async () => {
    const detail = await store.catalog.getVendorDetail('alpha', 10);
    expect(detail).toMatchObject({
      slug: 'alpha',
      score: ALPHA_SCORE,
      claimed: true,
      scoreHistory: [ALPHA_SCORE],
    });
    expect(await store.catalog.getVendorDetail('beta', 10)).toMatchObject({ score: null, scoreHistory: [] });
    expect(await store.catalog.getVendorDetail('nope', 10)).toBeNull();
  });

  it('returns a peptide with its aliases sorted, and null for an unknown slug', async () => {
    expect(await store.catalog.getPeptide('bpc-157')).toEqual({
      id: expect.any(Number),
      slug: 'bpc-157',
      name: 'BPC-157',
      category: 'healing',
      molecularWeight: '1419.5 g/mol',
      aliases: ['Body Protection Compound', 'PL 14736', 'bpc157'],
    });
    expect((await store.catalog.getPeptide('aod-9604'))?.aliases).toEqual([]);
    expect(await store.catalog.getPeptide('nope')).toBeNull();
  });

  it('lists peptides ordered by name, each with its aliases', async () => {
    const list = await store.catalog.listPeptides();
    expect(list.map((p) => [p.slug, p.aliases])).toEqual([
      ['aod-9604', []],
      ['bpc-157', ['Body Protection Compound', 'PL 14736', 'bpc157']],
    ]);
    expect(list[1]).toEqual(await store.catalog.getPeptide('bpc-157'));
  });

  it('lists every stored price of a peptide, both sources, with the claimed flag', async () => {
    const bpc = (await store.catalog.getPeptide('bpc-157'))!;
    const prices = await store.catalog.listPrices(bpc.id);
    const sorted = [...prices].sort((a, b) =>
      `${a.vendorSlug}${a.source}`.localeCompare(`${b.vendorSlug}${b.source}`),
    );
    expect(sorted).toEqual([
      {
        vendorSlug: 'alpha',
        vendorName: 'Alpha Peptides',
        claimed: true,
        vialMg: 5,
        totalUsd: 45,
        inStock: true,
        source: 'baseline',
        updatedAt: '2026-05-01T00:00:00.000Z',
      },
      {
        vendorSlug: 'alpha',
        vendorName: 'Alpha Peptides',
        claimed: true,
        vialMg: 5,
        totalUsd: 42.5,
        inStock: false,
        source: 'live',
        updatedAt: '2026-05-31T00:00:00.000Z',
      },
      {
        vendorSlug: 'beta',
        vendorName: 'Beta Labs',
        claimed: false,
        vialMg: 10,
        totalUsd: 80,
        inStock: true,
        source: 'baseline',
        updatedAt: '2026-05-02T00:00:00.000Z',
      },
    ]);
    const aod = (await store.catalog.getPeptide('aod-9604'))!;
    expect(await store.catalog.listPrices(aod.id)).toEqual([]);
  });

  it('finds batch records by normalised key across vendors, with the lab name joined', async () => {
    const found = await store.batches.findByKey(batchKey('  Ab-123\t'));
    expect(found.map((r) => r.vendorSlug).sort()).toEqual(['alpha', 'beta']);
    expect(found.find((r) => r.vendorSlug === 'alpha')).toEqual({
      batchId: 'AB-123',
      status: 'approved',
      vendorSlug: 'alpha',
      vendorName: 'Alpha Peptides',
      vendorVerified: true,
      peptideName: 'BPC-157',
      purity: 99.2,
      labName: 'Janoshik Analytical',
      testMethod: 'HPLC',
      testedAt: '2026-04-01T00:00:00.000Z',
      source: 'vendor',
      sourceUrl: 'https://janoshik.com/tests/1',
      submittedAt: null,
    });
    expect(found.find((r) => r.vendorSlug === 'beta')).toEqual({
      batchId: 'ab-123',
      status: 'pending',
      vendorSlug: 'beta',
      vendorName: 'Beta Labs',
      vendorVerified: false,
      peptideName: 'AOD-9604',
      purity: null,
      labName: null,
      testMethod: null,
      testedAt: null,
      source: null,
      sourceUrl: null,
      submittedAt: '2026-05-29T00:00:00.000Z',
    });
  });

  it('narrows a batch lookup to one vendor', async () => {
    const key = batchKey('AB-123');
    expect((await store.batches.findByKey(key, 'beta')).map((r) => r.vendorSlug)).toEqual(['beta']);
    expect((await store.batches.findByKey(key, 'alpha')).map((r) => r.batchId)).toEqual(['AB-123']);
    expect(await store.batches.findByKey(key, 'nope')).toEqual([]);
    expect(await store.batches.findByKey(batchKey('REJ-1'))).toMatchObject([
      { status: 'rejected', purity: 40 },
    ]);
    expect(await store.batches.findByKey(batchKey('ZZ-404'))).toEqual([]);
  });

  it('keeps the newest N scores per vendor, oldest first, in the detail and in scoreHistories()', async () => {
    for (const [i, score] of [80, 85, 90].entries()) {
      await store.imports.apply(
        importBatch([{ type: 'override', vendorSlug: 'alpha', field: 'score', value: score, reason: 'pin' }]),
        { nowIso: new Date(Date.parse(NOW_ISO) + (i + 1) * 1000).toISOString(), reason: `pin ${score}` },
      );
    }
    expect((await store.catalog.getVendorDetail('alpha', 10))?.scoreHistory).toEqual([
      ALPHA_SCORE,
      80,
      85,
      90,
    ]);
    expect((await store.catalog.getVendorDetail('alpha', 3))?.scoreHistory).toEqual([80, 85, 90]);
    expect((await store.catalog.getVendorDetail('alpha', 1))?.scoreHistory).toEqual([90]);
    const alphaId = (await store.catalog.getVendorDetail('alpha', 1))!.id;
    const histories = await store.catalog.scoreHistories(2);
    expect([...histories.entries()]).toEqual([[alphaId, [85, 90]]]);
    const reasons = await store.kysely
      .selectFrom('score_history')
      .select(['reason', 'recorded_at'])
      .orderBy('id')
      .execute();
    expect(reasons.map((r) => r.reason)).toEqual(['import', 'pin 80', 'pin 85', 'pin 90']);
    expect(reasons[3]?.recorded_at).toBe(new Date(Date.parse(NOW_ISO) + 3000).toISOString());
  });
});

describe.each(DIALECTS)('storage contract: chunked apply (%s)', (dialect) => {
  it('applying one record per chunk gives exactly the state of one apply', async () => {
    const one = await openFreshStore(dialect);
    const many = await openFreshStore(dialect);
    try {
      await one.store.imports.apply(importBatch(CATALOG), { nowIso: NOW_ISO, reason: 'import' });
      const seen: number[] = [];
      const counts = await many.store.imports.applyChunks(splitBatch(importBatch(CATALOG), 1), {
        nowIso: NOW_ISO,
        reason: 'import',
        onChunk: (c) => seen.push(Object.values(c).reduce((s, n) => s + n, 0)),
      });
      expect(seen).toEqual(CATALOG.map((_, i) => i + 1));
      expect(Object.values(counts).reduce((s, n) => s + n, 0)).toBe(CATALOG.length);
      // Event ids are random and their order follows the chunks: compare the events themselves.
      const omit = { outbox: ['id', 'seq'] };
      expect(await dumpTables(many.store.kysely, omit)).toEqual(await dumpTables(one.store.kysely, omit));
      const [a, b] = [await one.store.state.read(), await many.store.state.read()];
      expect(b.dataVersion).toBe(a.dataVersion);
      expect(await many.store.catalog.listVendors()).toEqual(await one.store.catalog.listVendors());
    } finally {
      await one.close();
      await many.close();
    }
  });
});

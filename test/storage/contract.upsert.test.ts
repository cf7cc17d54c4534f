import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportRecord } from '../../src/core/import/records.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { ALPHA_SCORE, CATALOG } from './catalog-dataset.ts';
import {
  countRows,
  dumpTables,
  type FreshStore,
  importBatch,
  NOW_ISO,
  openFreshStore,
  pillarOverrides,
  T0,
} from './support.ts';

let tick = 0;
/** A later timestamp for every apply, so "what changed" is visible in the timestamps. */
const nextIso = () => new Date(T0 + ++tick * 60_000).toISOString();

describe.each(DIALECTS)('storage contract: upsert semantics (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  const apply = (records: ImportRecord[], reason = 'import') =>
    store.imports.apply(importBatch(records), { nowIso: nextIso(), reason });
  const vendor = async (slug: string) => (await store.catalog.getVendorDetail(slug, 100))!;
  const row = (slug: string) =>
    store.kysely.selectFrom('vendors').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();
  const history = async (slug: string) => (await vendor(slug)).scoreHistory;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await store.imports.apply(importBatch(CATALOG), { nowIso: NOW_ISO, reason: 'import' });
  });
  afterAll(async () => fresh?.close());

  describe('applying the same records twice', () => {
    it('adds no rows and no score history, but still bumps the data version', async () => {
      const counts = await countRows(store.kysely);
      const state = await store.state.read();
      const iso = nextIso();
      await store.imports.apply(importBatch(CATALOG), { nowIso: iso, reason: 'again' });
      expect(await countRows(store.kysely)).toEqual(counts);
      expect(await history('alpha')).toEqual([ALPHA_SCORE]);
      const after = await store.state.read();
      expect(after.dataVersion).toBe(state.dataVersion + 1);
      expect(after.dataUpdatedAt).toBe(iso);
    });

    it('leaves every row as it was (only updated_at and row_version move)', async () => {
      // overrides.created_at is checked on its own below.
      const omit = {
        vendors: ['updated_at', 'row_version'],
        peptides: ['updated_at'],
        overrides: ['created_at'],
      };
      const first = await dumpTables(store.kysely, omit);
      await store.imports.apply(importBatch(CATALOG), { nowIso: nextIso(), reason: 'again' });
      expect(await dumpTables(store.kysely, omit)).toEqual(first);
    });

    it('keeps the created_at of an override that is imported again unchanged', async () => {
      const read = () =>
        store.kysely
          .selectFrom('overrides')
          .select(['vendor_id', 'field', 'created_at'])
          .orderBy('field')
          .execute();
      const first = await read();
      await store.imports.apply(importBatch(CATALOG), { nowIso: nextIso(), reason: 'again' });
      expect(await read()).toEqual(first);
    });
  });

  describe('partial records', () => {
    it('keep the stored values of omitted optional vendor fields, and refresh updated_at only', async () => {
      await apply([
        {
          type: 'vendor',
          slug: 'gamma',
          name: 'Gamma',
          location: 'USA',
          description: 'Original description.',
          website: 'https://gamma.example',
          listingPlan: 'premium',
          verified: true,
          pending: true,
          verifiedAt: '2026-02-01T00:00:00.000Z',
        },
      ]);
      const inserted = await row('gamma');
      await apply([{ type: 'vendor', slug: 'gamma', name: 'Gamma Renamed' }]);
      const updated = await row('gamma');
      expect(updated).toEqual({
        ...inserted,
        name: 'Gamma Renamed',
        updated_at: updated.updated_at,
        row_version: updated.row_version,
      });
      expect(updated.updated_at > inserted.updated_at).toBe(true);
      expect(updated.created_at).toBe(inserted.created_at);
    });

    it('clear a nullable field given as null, and overwrite fields that are given', async () => {
      await apply([
        {
          type: 'vendor',
          slug: 'gamma',
          name: 'Gamma',
          website: null,
          verifiedAt: null,
          verified: false,
          description: '',
        },
      ]);
      expect(await vendor('gamma')).toMatchObject({
        website: null,
        verifiedAt: null,
        verified: false,
        pending: true,
        description: '',
        location: 'USA',
        listingPlan: 'premium',
      });
    });

    it('apply defaults on insert to labs, and keep omitted lab and account fields on update', async () => {
      await apply([
        { type: 'lab', slug: 'plain-lab', name: 'Plain' },
        { type: 'lab', slug: 'kept-lab', name: 'Kept', trusted: true, verifyUrl: 'https://kept.example/v' },
        { type: 'account', name: 'limits-co', plan: 'custom', rateLimitA: 5, rateLimitB: 6 },
      ]);
      await apply([
        { type: 'lab', slug: 'kept-lab', name: 'Kept Renamed' },
        { type: 'account', name: 'limits-co', plan: 'enterprise' },
      ]);
      const labs = await store.kysely
        .selectFrom('labs')
        .select(['slug', 'name', 'trusted', 'verify_url'])
        .orderBy('slug')
        .execute();
      expect(labs.filter((l) => l.slug.endsWith('-lab'))).toEqual([
        { slug: 'kept-lab', name: 'Kept Renamed', trusted: 1, verify_url: 'https://kept.example/v' },
        { slug: 'plain-lab', name: 'Plain', trusted: 0, verify_url: null },
      ]);
      expect(await store.accounts.findByName('limits-co')).toMatchObject({
        plan: 'enterprise',
        rateLimitA: 5,
        rateLimitB: 6,
      });
    });

    it('keep omitted batch fields, match the batch number case- and trim-insensitively, and show the newest text', async () => {
      await apply([
        {
          type: 'batch',
          vendorSlug: 'beta',
          batchId: 'GB-9',
          peptideSlug: 'bpc-157',
          status: 'pending',
          submittedAt: '2026-05-01T00:00:00.000Z',
          source: 'email',
        },
      ]);
      await apply([
        {
          type: 'batch',
          vendorSlug: 'beta',
          batchId: '  gb-9 ',
          peptideSlug: 'bpc-157',
          status: 'approved',
          purity: 97,
          lab: 'janoshik',
          testMethod: 'HPLC',
          testedAt: '2026-05-20T00:00:00.000Z',
        },
      ]);
      const found = await store.batches.findByKey('gb-9');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        batchId: 'gb-9',
        status: 'approved',
        purity: 97,
        labName: 'Janoshik Analytical',
        source: 'email',
        submittedAt: '2026-05-01T00:00:00.000Z',
      });
      expect((await vendor('beta')).purity).toBe(97);
    });
  });

  describe('score recomputation', () => {
    it('a null override clears it: the vendor becomes unscored and no history is appended', async () => {
      await apply([
        { type: 'vendor', slug: 'delta-v', name: 'Delta' },
        ...pillarOverrides('delta-v', {
          coa: 90,
          purity: 80,
          sentiment: 70,
          transparency: 60,
          experience: 50,
        }),
      ]);
      expect(await vendor('delta-v')).toMatchObject({ score: 74, scoreHistory: [74] });

      await apply([{ type: 'override', vendorSlug: 'delta-v', field: 'coa', value: null }]);
      const cleared = await vendor('delta-v');
      expect(cleared).toMatchObject({ pillars: null, score: null, scoreHistory: [74] });
      const fields = await store.kysely
        .selectFrom('overrides')
        .select('field')
        .where('vendor_id', '=', cleared.id)
        .orderBy('field')
        .execute();
      expect(fields.map((f) => f.field)).toEqual(['experience', 'purity', 'sentiment', 'transparency']);
      expect((await row('delta-v')).score).toBeNull();

      // Clearing what is not set is a no-op, not an error.
      await apply([{ type: 'override', vendorSlug: 'delta-v', field: 'score', value: null }]);
      expect(await vendor('delta-v')).toMatchObject({ score: null, scoreHistory: [74] });
    });

    it('appends history only when the composite changes', async () => {
      await apply([
        { type: 'vendor', slug: 'eps', name: 'Eps' },
        ...pillarOverrides('eps', { coa: 90, purity: 80, sentiment: 70, transparency: 60, experience: 50 }),
      ]);
      // 50 → 51 moves the weighted mean by 0.15: still 74.
      await apply([{ type: 'override', vendorSlug: 'eps', field: 'experience', value: 51, reason: 'nudge' }]);
      expect(await vendor('eps')).toMatchObject({ score: 74, scoreHistory: [74] });
      expect((await vendor('eps')).pillars?.experience).toBe(51);
      // Re-importing the vendor alone recomputes it too, without a change.
      await apply([{ type: 'vendor', slug: 'eps', name: 'Eps' }]);
      expect(await history('eps')).toEqual([74]);
      // coa 90 → 100 adds 3.
      await apply([{ type: 'override', vendorSlug: 'eps', field: 'coa', value: 100, reason: 'audit' }]);
      expect(await vendor('eps')).toMatchObject({ score: 77, scoreHistory: [74, 77] });
    });

    it('a score override pins the composite; clearing it returns to the weighted mean', async () => {
      await apply([{ type: 'override', vendorSlug: 'eps', field: 'score', value: 95, reason: 'pin' }]);
      expect(await vendor('eps')).toMatchObject({ score: 95, scoreHistory: [74, 77, 95] });
      expect((await vendor('eps')).pillars?.coa).toBe(100);
      await apply([{ type: 'override', vendorSlug: 'eps', field: 'score', value: null }]);
      expect(await vendor('eps')).toMatchObject({ score: 77, scoreHistory: [74, 77, 95, 77] });
    });

    it('recomputes the mean purity when a batch changes status', async () => {
      await apply([
        { type: 'vendor', slug: 'zeta', name: 'Zeta' },
        {
          type: 'batch',
          vendorSlug: 'zeta',
          batchId: 'Z-1',
          peptideSlug: 'bpc-157',
          purity: 99,
          lab: 'janoshik',
          testMethod: 'HPLC',
          testedAt: '2026-05-01T00:00:00.000Z',
          status: 'approved',
        },
        {
          type: 'batch',
          vendorSlug: 'zeta',
          batchId: 'Z-2',
          peptideSlug: 'bpc-157',
          purity: 96,
          lab: 'janoshik',
          testMethod: 'HPLC',
          testedAt: '2026-05-02T00:00:00.000Z',
          status: 'approved',
        },
      ]);
      expect((await vendor('zeta')).purity).toBe(97.5);
      await apply([
        { type: 'batch', vendorSlug: 'zeta', batchId: 'Z-2', peptideSlug: 'bpc-157', status: 'rejected' },
      ]);
      expect((await vendor('zeta')).purity).toBe(99);
      await apply([
        { type: 'batch', vendorSlug: 'zeta', batchId: 'z-1', peptideSlug: 'bpc-157', status: 'rejected' },
      ]);
      expect((await vendor('zeta')).purity).toBeNull();
    });
  });

  describe('peptide aliases', () => {
    it('are replaced when `aliases` is given, kept when omitted, cleared by an empty list', async () => {
      await apply([
        {
          type: 'peptide',
          slug: 'tb-500',
          name: 'TB-500',
          category: 'healing',
          molecularWeight: '4963 g/mol',
          aliases: ['b', 'a'],
        },
      ]);
      expect((await store.catalog.getPeptide('tb-500'))?.aliases).toEqual(['a', 'b']);
      await apply([
        {
          type: 'peptide',
          slug: 'tb-500',
          name: 'TB-500',
          category: 'healing',
          molecularWeight: '4963 g/mol',
          aliases: ['Thymosin Beta-4', 'c', 'c'],
        },
      ]);
      expect((await store.catalog.getPeptide('tb-500'))?.aliases).toEqual(['Thymosin Beta-4', 'c']);
      await apply([
        {
          type: 'peptide',
          slug: 'tb-500',
          name: 'TB 500',
          category: 'recovery',
          molecularWeight: '4963.4 g/mol',
        },
      ]);
      expect(await store.catalog.getPeptide('tb-500')).toMatchObject({
        name: 'TB 500',
        category: 'recovery',
        molecularWeight: '4963.4 g/mol',
        aliases: ['Thymosin Beta-4', 'c'],
      });
      await apply([
        {
          type: 'peptide',
          slug: 'tb-500',
          name: 'TB 500',
          category: 'recovery',
          molecularWeight: '4963.4 g/mol',
          aliases: [],
        },
      ]);
      expect((await store.catalog.getPeptide('tb-500'))?.aliases).toEqual([]);
      // Other peptides' aliases are untouched.
      expect((await store.catalog.getPeptide('bpc-157'))?.aliases).toHaveLength(3);
    });
  });

  describe('claims', () => {
    it('a claim moves ownership and a claim with account null releases it', async () => {
      const bpc = (await store.catalog.getPeptide('bpc-157'))!;
      const claimedOf = async (slug: string) =>
        (await store.catalog.listPrices(bpc.id)).find((p) => p.vendorSlug === slug)?.claimed;
      await apply([{ type: 'claim', vendorSlug: 'beta', account: 'custom-co' }]);
      expect((await vendor('beta')).claimed).toBe(true);
      expect(await claimedOf('beta')).toBe(true);
      const acct = (await store.accounts.findByName('custom-co'))!;
      expect((await row('beta')).owner_account_id).toBe(acct.id);

      await apply([{ type: 'claim', vendorSlug: 'beta', account: null }]);
      expect((await vendor('beta')).claimed).toBe(false);
      expect(await claimedOf('beta')).toBe(false);
      expect((await row('beta')).owner_account_id).toBeNull();
      expect((await vendor('alpha')).claimed).toBe(true);
    });
  });
});

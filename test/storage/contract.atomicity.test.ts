import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportBatch, ImportRecord } from '../../src/core/import/records.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { CATALOG } from './catalog-dataset.ts';
import {
  countRows,
  dumpTables,
  type FreshStore,
  importBatch,
  NOW_ISO,
  openFreshStore,
  pillarOverrides,
} from './support.ts';

const LATER = '2026-06-01T13:00:00.000Z';

/** Chunks that write real rows first, then fail. */
function* failingChunks(failure: 'dangling-vendor' | 'throw'): Generator<ImportBatch> {
  yield importBatch([
    { type: 'account', name: 'atom-acct', plan: 'pro' },
    {
      type: 'peptide',
      slug: 'atom-pep',
      name: 'Atom',
      category: 'test',
      molecularWeight: '100 g/mol',
      aliases: ['x'],
    },
    { type: 'vendor', slug: 'atom-v', name: 'Atom Vendor' },
    ...pillarOverrides('atom-v', { coa: 50, purity: 50, sentiment: 50, transparency: 50, experience: 50 }),
    // Existing rows are updated too: the rollback must restore them.
    { type: 'vendor', slug: 'alpha', name: 'Alpha RENAMED', description: 'changed' },
    { type: 'override', vendorSlug: 'alpha', field: 'score', value: 1, reason: 'sabotage' },
  ]);
  yield importBatch([{ type: 'claim', vendorSlug: 'beta', account: 'atom-acct' }]);
  if (failure === 'throw') throw new Error('generator failed mid-import');
  // Validation was bypassed: the vendor does not exist, so the row has no vendor id and the write fails.
  const dangling: ImportRecord = {
    type: 'price',
    vendorSlug: 'ghost',
    peptideSlug: 'atom-pep',
    vialMg: 5,
    source: 'live',
    totalUsd: 10,
    inStock: true,
    updatedAt: NOW_ISO,
  };
  yield importBatch([dangling]);
}

describe.each(DIALECTS)('storage contract: all-or-nothing import (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await store.imports.apply(importBatch(CATALOG), { nowIso: NOW_ISO, reason: 'import' });
  });
  afterEach(async () => fresh?.close());

  it.each(['dangling-vendor', 'throw'] as const)(
    'a failure in a later chunk (%s) writes nothing at all',
    async (failure) => {
      const dump = await dumpTables(store.kysely);
      const state = await store.state.read();
      const progress: number[] = [];
      await expect(
        store.imports.applyChunks(failingChunks(failure), {
          nowIso: LATER,
          reason: 'doomed',
          onChunk: (c) => progress.push(Object.values(c).reduce((s, n) => s + n, 0)),
        }),
      ).rejects.toThrow(failure === 'throw' ? 'generator failed mid-import' : undefined);
      // The earlier chunks really were written inside the transaction before it failed.
      expect(progress).toEqual([10, 11]);
      expect(await dumpTables(store.kysely)).toEqual(dump);
      expect(await store.state.read()).toEqual(state);
      expect(await store.accounts.findByName('atom-acct')).toBeNull();
      expect((await store.catalog.getVendorDetail('alpha', 10))?.name).toBe('Alpha Peptides');
    },
  );

  it('a failed import leaves the store usable, and the next import applies normally', async () => {
    await expect(
      store.imports.applyChunks(failingChunks('dangling-vendor'), { nowIso: LATER, reason: 'doomed' }),
    ).rejects.toThrow();
    const before = await countRows(store.kysely);
    const state = await store.state.read();
    await store.imports.apply(importBatch([{ type: 'vendor', slug: 'after', name: 'After' }]), {
      nowIso: LATER,
      reason: 'ok',
    });
    expect((await countRows(store.kysely)).vendors).toBe(before.vendors + 1);
    expect((await store.state.read()).dataVersion).toBe(state.dataVersion + 1);
  });

  it.runIf(dialect === 'sqlite')('a failed import does not signal a change to its own instance', async () => {
    store.state.externalChangeSuspected();
    await expect(
      store.imports.applyChunks(failingChunks('throw'), { nowIso: LATER, reason: 'doomed' }),
    ).rejects.toThrow();
    expect(store.state.externalChangeSuspected()).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogReadModel, type CatalogSnapshot } from '../../src/core/catalog/read-model.ts';
import type { ImportRecord } from '../../src/core/import/records.ts';
import type { CatalogStore } from '../../src/core/ports.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { CATALOG } from './catalog-dataset.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore, pillarOverrides } from './support.ts';

/** A CatalogStore that counts full vendor loads, to tell an incremental rebuild from a full one. */
function counting(store: CatalogStore) {
  const calls = { full: 0, changed: 0 };
  const wrapped: CatalogStore = Object.create(store);
  wrapped.listVendors = () => {
    calls.full++;
    return store.listVendors();
  };
  wrapped.listVendorsChangedSince = (v) => {
    calls.changed++;
    return store.listVendorsChangedSince(v);
  };
  return { wrapped, calls };
}

/** Everything a reader can observe of a snapshot, in plain data. */
const view = (s: CatalogSnapshot) => ({
  version: s.version,
  ranked: s.ranked.map((v) => [v.slug, v.score, v.name]),
  rankedVerified: s.rankedVerified.map((v) => v.slug),
  bySlug: [...s.bySlug.values()].sort((a, b) => a.id - b.id),
  peptides: s.peptides.map((p) => p.slug),
  rankings: Object.fromEntries([...s.peptideRankings].map(([k, vs]) => [k, vs.map((v) => v.slug)])),
});

describe.each(DIALECTS)('catalog read model: incremental rebuilds (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let t = 0;
  const write = (records: ImportRecord[]) =>
    store.imports.apply(importBatch(records), {
      nowIso: new Date(Date.parse(NOW_ISO) + ++t * 1000).toISOString(),
      reason: 'test',
    });

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await write(CATALOG);
  });
  afterEach(async () => fresh?.close());

  it('after each kind of write, the merged snapshot equals a full reload, and only changed vendors are read', async () => {
    const { wrapped, calls } = counting(store.catalog);
    const model = new CatalogReadModel(wrapped);
    await model.get(await store.state.read());
    expect(calls).toEqual({ full: 1, changed: 0 });
    const steps: ImportRecord[][] = [
      // A new scored vendor, verified, listing a peptide.
      [
        { type: 'vendor', slug: 'gamma', name: 'Gamma', verified: true },
        ...pillarOverrides('gamma', { coa: 99, purity: 99, sentiment: 99, transparency: 99, experience: 99 }),
        {
          type: 'price',
          vendorSlug: 'gamma',
          peptideSlug: 'bpc-157',
          vialMg: 5,
          source: 'live',
          totalUsd: 30,
          inStock: true,
          updatedAt: NOW_ISO,
        },
      ],
      // A score moves (ranking order changes), and a rename (tie-break by name).
      [{ type: 'override', vendorSlug: 'gamma', field: 'score', value: 1, reason: 'test' }],
      [{ type: 'vendor', slug: 'alpha', name: 'Aardvark Peptides' }],
      // Listings change what a vendor offers; unverifying drops it from Variant A's rankings.
      [
        {
          type: 'price',
          vendorSlug: 'gamma',
          peptideSlug: 'aod-9604',
          vialMg: 2,
          source: 'baseline',
          totalUsd: 20,
          inStock: false,
          updatedAt: NOW_ISO,
        },
      ],
      [{ type: 'vendor', slug: 'gamma', name: 'Gamma', verified: false }],
      // A peptide alone (no vendor touched).
      [
        {
          type: 'peptide',
          slug: 'tb-500',
          name: 'TB-500',
          category: 'healing',
          molecularWeight: '4963.4 g/mol',
        },
      ],
    ];
    for (const records of steps) {
      await write(records);
      const state = await store.state.read();
      const merged = await model.get(state);
      const full = await new CatalogReadModel(store.catalog).get(state);
      expect(view(merged)).toEqual(view(full));
    }
    expect(calls.full).toBe(1);
    expect(calls.changed).toBe(steps.length);
  });

  it('a recompute that changes nothing reloads nothing', async () => {
    const { wrapped, calls } = counting(store.catalog);
    const model = new CatalogReadModel(wrapped);
    const before = await model.get(await store.state.read());
    const r = await store.imports.recomputeAll({
      nowIso: new Date(Date.parse(NOW_ISO) + t * 1000).toISOString(),
      reason: 'x',
    });
    expect(r.updated).toBe(0);
    expect(await model.get(await store.state.read())).toBe(before);
    expect(calls).toEqual({ full: 1, changed: 0 });
  });

  it('a write that touches a vendor but changes nothing it shows (a pending submission) keeps the rankings', async () => {
    const { wrapped, calls } = counting(store.catalog);
    const model = new CatalogReadModel(wrapped);
    const before = await model.get(await store.state.read());
    await write([
      {
        type: 'batch',
        vendorSlug: 'alpha',
        batchId: 'PEND-NEW',
        peptideSlug: 'bpc-157',
        status: 'pending',
        submittedAt: NOW_ISO,
      },
    ]);
    const state = await store.state.read();
    const after = await model.get(state);
    expect(after.version).toBe(state.dataVersion);
    expect(after.version).toBeGreaterThan(before.version);
    // The same rankings, not rebuilt: the arrays are the previous snapshot's.
    expect(after.ranked).toBe(before.ranked);
    expect(after.peptideRankings).toBe(before.peptideRankings);
    expect(view({ ...after, version: before.version })).toEqual(view(before));
    expect(calls).toEqual({ full: 1, changed: 1 });
  });
});

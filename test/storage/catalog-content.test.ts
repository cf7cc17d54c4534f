import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogReadModel } from '../../src/core/catalog/read-model.ts';
import type { ImportRecord } from '../../src/core/import/records.ts';
import { toCachedBody } from '../../src/http/conditional.ts';
import { CATALOG_KEY_PREFIX, ResponseCache } from '../../src/http/response-cache.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { CATALOG } from './catalog-dataset.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore } from './support.ts';

/**
 * What a write that changes nothing scored (a pending CoA submission) leaves alone: its vendor is
 * not recomputed nor reloaded, the catalog keeps its content version and time, and the bodies
 * rendered from the catalog stay cached; a write that does change it (an approval) moves all three.
 */
describe.each(DIALECTS)('catalog content across writes (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let t = 0;
  const at = (n: number) => new Date(Date.parse(NOW_ISO) + n * 60_000).toISOString();
  const write = (records: ImportRecord[]) =>
    store.imports.apply(importBatch(records), { nowIso: at(++t), reason: 'test' });
  const alpha = async () =>
    store.kysely
      .selectFrom('vendors')
      .select(['row_version', 'coa', 'score'])
      .where('slug', '=', 'alpha')
      .executeTakeFirstOrThrow();
  const history = async () =>
    Number(
      (
        await store.kysely
          .selectFrom('score_history')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const batchLine = (
    batchId: string,
    status: 'pending' | 'approved' = 'pending',
    peptideSlug = 'bpc-157',
  ): ImportRecord => ({
    type: 'batch',
    vendorSlug: 'alpha',
    batchId,
    peptideSlug,
    status,
    purity: 99.5,
    lab: 'janoshik',
    testMethod: 'HPLC',
    testedAt: '2026-05-20T00:00:00.000Z',
    source: 'CoA upload',
    submittedAt: at(t + 1),
  });

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    t = 0;
    await write(CATALOG);
  });
  afterEach(async () => fresh?.close());

  it('a pending batch: the data version moves, its vendor is neither recomputed nor reloaded, the catalog content stays', async () => {
    const model = new CatalogReadModel(store.catalog);
    const before = await model.get(await store.state.read());
    const [row, entries] = [await alpha(), await history()];

    await write([batchLine('NEW-1')]);
    const state = await store.state.read();
    expect(state.dataVersion).toBeGreaterThan(before.version);
    expect(state.dataUpdatedAt).toBe(at(t));
    expect(await alpha()).toEqual(row);
    expect(await history()).toBe(entries);
    expect(await store.catalog.listVendorsChangedSince(before.version)).toEqual([]);

    const after = await model.get(state);
    expect(after.version).toBe(state.dataVersion);
    expect(after.contentVersion).toBe(before.contentVersion);
    expect(after.dataUpdatedAt).toBe(before.dataUpdatedAt);
    expect(after.ranked).toBe(before.ranked);
  });

  it('an approved batch, and a pending line for a batch stored as approved, do recompute and reload the vendor', async () => {
    const model = new CatalogReadModel(store.catalog);
    const before = await model.get(await store.state.read());

    // A pending line cannot undo the approval, but its submission fields (the peptide) apply.
    await write([batchLine('AB-124', 'pending', 'bpc-157')]);
    let state = await store.state.read();
    expect((await alpha()).row_version).toBe(state.dataVersion);
    // Reloaded and compared: alpha's shown figures are overridden, so the catalog content stays.
    let snap = await model.get(state);
    expect(snap.contentVersion).toBe(before.contentVersion);

    await write([batchLine('NEW-2', 'approved')]);
    state = await store.state.read();
    expect((await alpha()).row_version).toBe(state.dataVersion);
    snap = await model.get(state);
    expect(snap.contentVersion).toBe(state.dataVersion);
    expect(snap.dataUpdatedAt).toBe(at(t));
    expect(snap.dataUpdatedAt).not.toBe(before.dataUpdatedAt);
  });

  it('the response cache serves a catalog body across a pending write once the snapshot confirms it, and drops it after an approval', async () => {
    const model = new CatalogReadModel(store.catalog);
    const cache = new ResponseCache(model);
    const listKey = `${CATALOG_KEY_PREFIX}b:vendors:50:0`;
    const dataKey = 'b:vendor:alpha';
    const s1 = await store.state.read();
    const snap1 = await model.get(s1);
    cache.set(listKey, snap1.version, toCachedBody('{"list":1}'));
    cache.set(dataKey, s1.dataVersion, toCachedBody('{"vendor":1}'));
    expect(cache.get(listKey, s1.dataVersion, 0)?.body.toString()).toBe('{"list":1}');
    expect(cache.get(dataKey, s1.dataVersion, 0)?.body.toString()).toBe('{"vendor":1}');

    await write([batchLine('NEW-3')]);
    const s2 = await store.state.read();
    cache.dataChanged();
    expect(cache.get(dataKey, s2.dataVersion, 0)).toBeUndefined();
    // Before the snapshot of the new version exists nobody knows whether the list changed: not
    // served, but kept.
    expect(cache.get(listKey, s2.dataVersion, 0)).toBeUndefined();
    await model.get(s2);
    expect(cache.get(listKey, s2.dataVersion, 0)?.body.toString()).toBe('{"list":1}');
    expect(cache.size).toBe(1);

    await write([batchLine('NEW-3', 'approved')]);
    const s3 = await store.state.read();
    cache.dataChanged();
    await model.get(s3);
    expect(cache.get(listKey, s3.dataVersion, 0)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.byteSize).toBe(0);
  });
});

describe('ResponseCache: catalog bodies', () => {
  /** A read model stand-in: which content each data version has. */
  const versions = (map: Record<number, number>) => ({ contentVersionAt: (v: number) => map[v] });

  it('a body of newer content drops every body of older content; a body whose snapshot is gone is not kept', () => {
    const content: Record<number, number> = { 5: 5 };
    const cache = new ResponseCache(versions(content));
    const a = `${CATALOG_KEY_PREFIX}a:vendors:1:50`;
    const b = `${CATALOG_KEY_PREFIX}b:vendors:50:0`;
    cache.set(a, 5, toCachedBody('a5'));
    cache.set(b, 5, toCachedBody('b5'));
    expect(cache.size).toBe(2);
    content[6] = 5; // a write that changed nothing the catalog holds
    expect(cache.get(a, 6, 0)?.body.toString()).toBe('a5');
    content[7] = 7; // one that did
    cache.set(a, 7, toCachedBody('a7'));
    expect(cache.size).toBe(1);
    expect(cache.byteSize).toBe(a.length + 2);
    expect(cache.get(b, 7, 0)).toBeUndefined();
    // Rendered from a snapshot the read model has moved past: which content it had is unknown.
    cache.set(b, 6, toCachedBody('b6'));
    expect(cache.get(b, 7, 0)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('without a read model, catalog keys are kept per data version like the others', () => {
    const cache = new ResponseCache();
    const a = `${CATALOG_KEY_PREFIX}a:vendors:1:50`;
    cache.set(a, 5, toCachedBody('a5'));
    expect(cache.get(a, 5, 0)?.body.toString()).toBe('a5');
    expect(cache.get(a, 6, 0)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stays within its byte budget across both kinds of body', () => {
    const cache = new ResponseCache(versions({ 1: 1 }), 100, 40);
    cache.set(`${CATALOG_KEY_PREFIX}x`, 1, toCachedBody('x'.repeat(20)));
    cache.set('data-key', 1, toCachedBody('y'.repeat(20)));
    expect(cache.byteSize).toBeLessThanOrEqual(40);
    cache.dataChanged();
    expect(cache.byteSize).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportRecord } from '../../src/core/import/records.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore, T0 } from './support.ts';

const REFS: ImportRecord[] = [
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  {
    type: 'vendor',
    slug: 'alpha',
    name: 'Alpha Peptides',
    verified: true,
    verifiedAt: '2026-01-15T00:00:00.000Z',
  },
  { type: 'vendor', slug: 'beta', name: 'Beta Labs' },
];

const price = (vendorSlug: string, totalUsd: number, inStock: boolean, updatedAt: string): ImportRecord => ({
  type: 'price',
  vendorSlug,
  peptideSlug: 'bpc-157',
  vialMg: 5,
  source: 'baseline',
  totalUsd,
  inStock,
  updatedAt,
});

let tick = 0;
const nextIso = () => new Date(T0 + ++tick * 60_000).toISOString();

describe.each(DIALECTS)('storage contract: price history (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  const apply = (records: ImportRecord[], reason: string, nowIso = nextIso()) =>
    store.imports.apply(importBatch(records), { nowIso, reason });
  const changes = () =>
    store.kysely
      .selectFrom('price_changes as c')
      .innerJoin('vendors as v', 'v.id', 'c.vendor_id')
      .select([
        'v.slug as vendor',
        'c.old_total_usd',
        'c.old_in_stock',
        'c.old_updated_at',
        'c.new_total_usd',
        'c.new_in_stock',
        'c.effective_at',
        'c.changed_at',
        'c.changed_by',
      ])
      .orderBy('c.id')
      .execute();
  const peptideId = async () =>
    (
      await store.kysely
        .selectFrom('peptides')
        .select('id')
        .where('slug', '=', 'bpc-157')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await apply(
      [
        ...REFS,
        price('alpha', 50, true, '2026-05-01T00:00:00.000Z'),
        price('beta', 40, false, '2026-05-02T00:00:00.000Z'),
      ],
      'import',
      NOW_ISO,
    );
  });
  afterAll(async () => fresh?.close());

  it('keeps a new listing as a change from nothing: who, when, and the new values', async () => {
    expect(await changes()).toEqual([
      {
        vendor: 'alpha',
        old_total_usd: null,
        old_in_stock: null,
        old_updated_at: null,
        new_total_usd: 50,
        new_in_stock: 1,
        effective_at: '2026-05-01T00:00:00.000Z',
        changed_at: NOW_ISO,
        changed_by: 'import',
      },
      {
        vendor: 'beta',
        old_total_usd: null,
        old_in_stock: null,
        old_updated_at: null,
        new_total_usd: 40,
        new_in_stock: 0,
        effective_at: '2026-05-02T00:00:00.000Z',
        changed_at: NOW_ISO,
        changed_by: 'import',
      },
    ]);
  });

  it('keeps nothing for a re-import of the same values, nor for a refresh of updatedAt alone', async () => {
    await apply([price('alpha', 50, true, '2026-05-01T00:00:00.000Z')], 'again');
    await apply([price('alpha', 50, true, '2026-05-03T00:00:00.000Z')], 'refresh');
    expect(await changes()).toHaveLength(2);
    const row = await store.kysely
      .selectFrom('prices')
      .select('updated_at')
      .where('total_usd', '=', 50)
      .execute();
    expect(row).toEqual([{ updated_at: '2026-05-03T00:00:00.000Z' }]);
  });

  it('keeps a change of price and a change of stock with the old and new values and the writer', async () => {
    const at = nextIso();
    await apply(
      [
        price('alpha', 45, true, '2026-05-04T00:00:00.000Z'),
        price('beta', 40, true, '2026-05-04T12:00:00.000Z'),
      ],
      'listing feed by ops@example.com',
      at,
    );
    expect((await changes()).slice(2)).toEqual([
      {
        vendor: 'alpha',
        old_total_usd: 50,
        old_in_stock: 1,
        old_updated_at: '2026-05-03T00:00:00.000Z',
        new_total_usd: 45,
        new_in_stock: 1,
        effective_at: '2026-05-04T00:00:00.000Z',
        changed_at: at,
        changed_by: 'listing feed by ops@example.com',
      },
      {
        vendor: 'beta',
        old_total_usd: 40,
        old_in_stock: 0,
        old_updated_at: '2026-05-02T00:00:00.000Z',
        new_total_usd: 40,
        new_in_stock: 1,
        effective_at: '2026-05-04T12:00:00.000Z',
        changed_at: at,
        changed_by: 'listing feed by ops@example.com',
      },
    ]);
  });

  it('writes the history in the transaction of the price: a write that fails keeps neither', async () => {
    const before = await changes();
    async function* chunks() {
      yield importBatch([price('alpha', 1, true, '2026-05-05T00:00:00.000Z')]);
      throw new Error('the write fails after the price');
    }
    await expect(
      store.imports.applyChunks(chunks(), { nowIso: nextIso(), reason: 'doomed' }),
    ).rejects.toThrow('the write fails after the price');
    expect(await changes()).toEqual(before);
    const alpha = await store.kysely
      .selectFrom('prices')
      .select('total_usd')
      .where('total_usd', '=', 1)
      .execute();
    expect(alpha).toEqual([]);
  });

  it('keeps each move of one listing written twice in one write (several chunks)', async () => {
    const n = (await changes()).length;
    await store.imports.applyChunks(
      [
        importBatch([price('alpha', 44, true, '2026-05-06T00:00:00.000Z')]),
        importBatch([price('alpha', 43, true, '2026-05-07T00:00:00.000Z')]),
      ],
      { nowIso: nextIso(), reason: 'two days' },
    );
    const after = await changes();
    expect(after.slice(n).map((c) => [c.old_total_usd, c.new_total_usd])).toEqual([
      [45, 44],
      [44, 43],
    ]);
  });

  it('reads a peptide history with vendor facts, oldest effective first, before a bound', async () => {
    const list = await store.priceHistory.listPriceChanges(await peptideId(), '2026-05-06T00:00:00.000Z');
    expect(list.map((c) => [c.vendorSlug, c.verified, c.totalUsd, c.inStock, c.effectiveAt])).toEqual([
      ['alpha', true, 50, true, '2026-05-01T00:00:00.000Z'],
      ['beta', false, 40, false, '2026-05-02T00:00:00.000Z'],
      ['alpha', true, 45, true, '2026-05-04T00:00:00.000Z'],
      ['beta', false, 40, true, '2026-05-04T12:00:00.000Z'],
    ]);
    expect(list[0]).toMatchObject({ vendorName: 'Alpha Peptides', vialMg: 5, source: 'baseline' });
    expect(list.map((c) => c.seq)).toEqual([...list.map((c) => c.seq)].sort((a, b) => a - b));
    expect(await store.priceHistory.listPriceChanges(await peptideId(), '2026-05-01T00:00:00.000Z')).toEqual(
      [],
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import type { PriceRecord } from '../../../src/core/import/records.ts';
import { getPriceHistory } from '../../../src/core/prices/get-price-stats.ts';
import { SCALE_HISTORY_DAYS, type ScaleOptions, scaleDataset } from '../../../src/seed/scale-dataset.ts';
import { type FreshStore, openFreshStore } from '../../storage/support.ts';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const listing = (p: PriceRecord) => `${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}/${p.source}`;
const prices = (o: ScaleOptions, chunkSize?: number) =>
  [...scaleDataset(o, NOW, chunkSize)].flatMap((c) => c.price);
/** Each listing's records in the order they are written, the last one its current record. */
const byListing = (records: readonly PriceRecord[]) => {
  const out = new Map<string, PriceRecord[]>();
  for (const p of records) {
    const list = out.get(listing(p));
    if (list) list.push(p);
    else out.set(listing(p), [p]);
  }
  return out;
};

describe('scale dataset: price history', () => {
  const SMALL: ScaleOptions = { vendors: 50, batches: 1000, peptides: 200, reviews: 120, seed: 7 };
  const withHistory = prices(SMALL, 100);
  const without = prices({ ...SMALL, priceHistoryDays: 0 }, 100);
  const lists = byListing(withHistory);

  it('ends every listing on the current record the generator without history writes', () => {
    expect([...lists.values()].map((l) => l.at(-1))).toEqual(without);
    // The current prices are those of SCALE_DATASET_VERSION 2 (before the history): a sample.
    expect(without).toHaveLength(233);
    expect(without[0]).toEqual({
      type: 'price',
      vendorSlug: 'kelvin-synthetics-co-0000',
      peptideSlug: 'follistatin-344-1117',
      vialMg: 20,
      source: 'baseline',
      totalUsd: 499.6,
      inStock: true,
      updatedAt: '2025-05-17T22:03:13.212Z',
    });
    expect(without.at(-1)).toMatchObject({ vendorSlug: 'onyx-synthetics-supply-0049', totalUsd: 93.3 });
  });

  it('leaves every other record as it was', () => {
    const rest = (o: ScaleOptions) =>
      [...scaleDataset(o, NOW, 100)]
        .map((c) => ({ ...c, price: [] }))
        .filter((c) => Object.values(c).some((l) => l.length));
    expect(rest(SMALL)).toEqual(rest({ ...SMALL, priceHistoryDays: 0 }));
  });

  it('is deterministic and does not depend on the chunk size', () => {
    expect(prices(SMALL, 100)).toEqual(withHistory);
    expect([...byListing(prices(SMALL, 777)).entries()]).toEqual([...lists.entries()]);
  });

  it('moves each listing forward in time over 90 days, by a few percent, out of stock now and then', () => {
    const start = NOW - SCALE_HISTORY_DAYS * DAY_MS;
    let withHistory = 0;
    let moves = 0;
    let outOfStock = 0;
    for (const list of lists.values()) {
      const c = list.at(-1)!;
      const earlier = list.slice(0, -1);
      // Last updated before the window (a stale baseline): its current record, written first, opens it.
      if (Date.parse(c.updatedAt) <= start + DAY_MS) {
        expect(earlier).toEqual([c]);
        continue;
      }
      withHistory++;
      const times = list.map((p) => Date.parse(p.updatedAt));
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
      expect(times[0]).toBeLessThanOrEqual(start);
      expect(times[0]).toBeGreaterThanOrEqual(start - 5 * DAY_MS);
      expect(earlier.length).toBeGreaterThanOrEqual(1);
      expect(earlier.length).toBeLessThanOrEqual(4);
      for (const p of earlier) {
        expect(Math.abs(p.totalUsd / c.totalUsd - 1)).toBeLessThan(0.07);
        moves++;
        if (!p.inStock) outOfStock++;
      }
    }
    // Baselines are last updated up to 120 days ago: those of the last 90 days have a history.
    expect(withHistory / lists.size).toBeGreaterThan(0.6);
    expect(moves / withHistory).toBeGreaterThan(2);
    expect(outOfStock / moves).toBeGreaterThan(0.03);
    expect(outOfStock / moves).toBeLessThan(0.2);
  });
});

describe('the seeded scale dataset carries 90 days of price statistics (sqlite)', () => {
  // Few peptides, so each has many listings.
  const OPTS: ScaleOptions = { vendors: 120, batches: 400, peptides: 6, reviews: 0, seed: 5 };
  let fresh: FreshStore;
  beforeAll(async () => {
    fresh = await openFreshStore('sqlite');
    await fresh.store.imports.applyChunks(scaleDataset(OPTS, NOW, 500), {
      nowIso: new Date(NOW).toISOString(),
      reason: 'scale seed',
    });
  });
  afterAll(async () => fresh?.close());

  it('stores the current prices as the generator without history has them', async () => {
    const rows = await fresh.store.kysely
      .selectFrom('prices as p')
      .innerJoin('vendors as v', 'v.id', 'p.vendor_id')
      .innerJoin('peptides as t', 't.id', 'p.peptide_id')
      .select([
        'v.slug as vendor',
        't.slug as peptide',
        'p.vial_mg',
        'p.source',
        'p.total_usd',
        'p.in_stock',
        'p.updated_at',
      ])
      .execute();
    const got = rows.map((r) => [
      r.vendor,
      r.peptide,
      r.vial_mg,
      r.source,
      r.total_usd,
      r.in_stock === 1,
      r.updated_at,
    ]);
    const want = prices({ ...OPTS, priceHistoryDays: 0 }).map((p) => [
      p.vendorSlug,
      p.peptideSlug,
      p.vialMg,
      p.source,
      p.totalUsd,
      p.inStock,
      p.updatedAt,
    ]);
    const key = (x: unknown[]) => JSON.stringify(x);
    expect(got.map(key).sort()).toEqual(want.map(key).sort());
  });

  it('keeps the earlier versions as price changes', async () => {
    const changes = await fresh.store.kysely.selectFrom('price_changes').select(['changed_by']).execute();
    const listings = prices({ ...OPTS, priceHistoryDays: 0 }).length;
    expect(changes.length).toBeGreaterThan(2.5 * listings);
    expect(new Set(changes.map((c) => c.changed_by))).toEqual(new Set(['scale seed']));
  });

  it('has statistics on every one of the last 90 days for every peptide, and they move', async () => {
    const peptides = await fresh.store.kysely.selectFrom('peptides').select('slug').execute();
    expect(peptides).toHaveLength(OPTS.peptides!);
    for (const { slug } of peptides) {
      const { days } = await getPriceHistory(fresh.store, slug, SCALE_HISTORY_DAYS, NOW);
      expect(days).toHaveLength(90);
      for (const d of days) expect(d.listedVendorCount).toBeGreaterThan(0);
      expect(new Set(days.map((d) => d.median)).size).toBeGreaterThan(3);
      expect(days.every((d) => d.cheapestVerified !== null)).toBe(true);
    }
  });
});

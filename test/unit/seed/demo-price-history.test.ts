import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, ManualClock } from '../../../src/core/clock.ts';
import { getPriceHistory } from '../../../src/core/prices/get-price-stats.ts';
import { demoDataset } from '../../../src/seed/demo-dataset.ts';
import { DEMO_HISTORY_DAYS, demoPriceHistory } from '../../../src/seed/demo-price-history.ts';
import { seedDemo } from '../../../src/seed/seed-demo.ts';
import { type FreshStore, openFreshStore, T0 } from '../../storage/support.ts';

const listing = (p: { vendorSlug: string; peptideSlug: string; vialMg: number; source: string }) =>
  `${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}/${p.source}`;

describe('demo price history', () => {
  const current = demoDataset(T0).price;
  const rounds = demoPriceHistory(current, T0);

  it('puts every listing in the first round, each at most once per round, none in the future', () => {
    expect(rounds[0]!.map(listing).sort()).toEqual(current.map(listing).sort());
    for (const round of rounds) {
      expect(new Set(round.map(listing)).size).toBe(round.length);
      for (const r of round) expect(Date.parse(r.updatedAt)).toBeLessThanOrEqual(T0);
    }
  });

  it('moves each listing forward in time up to its current record, from 90 days back', () => {
    const byListing = new Map(current.map((c) => [listing(c), [] as number[]]));
    for (const round of rounds)
      for (const r of round) byListing.get(listing(r))!.push(Date.parse(r.updatedAt));
    let fromWindowStart = 0;
    for (const c of current) {
      const times = [...byListing.get(listing(c))!, Date.parse(c.updatedAt)];
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      if (times[0]! <= T0 - DEMO_HISTORY_DAYS * DAY_MS) fromWindowStart++;
    }
    // Only stale baselines (last updated before the window) start later; most listings reach back 90 days.
    expect(fromWindowStart / current.length).toBeGreaterThan(0.7);
    expect(rounds.length).toBeGreaterThanOrEqual(3);
  });
});

describe('the seeded demo carries 90 days of price statistics (sqlite)', () => {
  let fresh: FreshStore;
  beforeAll(async () => {
    fresh = await openFreshStore('sqlite');
    await seedDemo({ store: fresh.store.imports, clock: new ManualClock(T0) });
  });
  afterAll(async () => fresh?.close());

  it('keeps the current prices as the demo dataset has them', async () => {
    const rows = await fresh.store.kysely.selectFrom('prices').select(['total_usd', 'updated_at']).execute();
    expect(rows).toHaveLength(demoDataset(T0).price.length);
    const want = demoDataset(T0)
      .price.map((p) => `${p.totalUsd}@${p.updatedAt}`)
      .sort();
    expect(rows.map((r) => `${r.total_usd}@${r.updated_at}`).sort()).toEqual(want);
  });

  it('has statistics on every one of the last 90 days for the demo peptides, and they move', async () => {
    const slug = demoDataset(T0).price[0]!.peptideSlug;
    const { days } = await getPriceHistory(fresh.store, slug, DEMO_HISTORY_DAYS, T0);
    expect(days).toHaveLength(90);
    for (const d of days) expect(d.listedVendorCount).toBeGreaterThan(0);
    const medians = new Set(days.map((d) => d.median));
    expect(medians.size).toBeGreaterThan(3);
    expect(days.some((d) => d.cheapestVerified !== null)).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { DomainError } from '../../../src/core/errors.ts';
import { getPriceHistory, getPriceStats } from '../../../src/core/prices/get-price-stats.ts';
import { dailyPriceStats, type PriceChange, quantile } from '../../../src/core/prices/price-stats.ts';

/** 2026-06-01T00:00:00Z, a UTC midnight. */
const DAY0 = Date.UTC(2026, 5, 1);
const iso = (ms: number) => new Date(ms).toISOString();

let seq = 0;
const change = (over: Partial<PriceChange>): PriceChange => ({
  vendorSlug: 'alpha',
  vendorName: 'Alpha',
  verified: false,
  vialMg: 5,
  source: 'baseline',
  totalUsd: 50,
  inStock: true,
  effectiveAt: iso(DAY0),
  seq: ++seq,
  ...over,
});

describe('dailyPriceStats', () => {
  it('no rows: one empty point per day, dated by UTC day', () => {
    const days = dailyPriceStats([], DAY0 + 5 * 3_600_000, 3);
    expect(days.map((d) => d.date)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
    for (const d of days) {
      expect(d).toMatchObject({
        cheapestInStock: null,
        cheapestVerified: null,
        median: null,
        p25: null,
        p75: null,
        vendorCount: 0,
        listedVendorCount: 0,
      });
    }
  });

  it('all out of stock: listed vendors counted, no cheapest and no quartiles', () => {
    const [d] = dailyPriceStats(
      [change({ inStock: false }), change({ vendorSlug: 'beta', verified: true, inStock: false })],
      DAY0,
      1,
    );
    expect(d).toMatchObject({
      cheapestInStock: null,
      cheapestVerified: null,
      median: null,
      vendorCount: 0,
      listedVendorCount: 2,
    });
  });

  it('one vendor: it is the cheapest, and every quartile is its $/mg', () => {
    const [d] = dailyPriceStats([change({ totalUsd: 40, vialMg: 10, verified: true })], DAY0, 1);
    const row = { vendorSlug: 'alpha', vendorName: 'Alpha', perMg: 4, totalUsd: 40, vialMg: 10 };
    expect(d).toEqual({
      date: '2026-06-01',
      cheapestInStock: row,
      cheapestVerified: row,
      median: 4,
      p25: 4,
      p75: 4,
      vendorCount: 1,
      listedVendorCount: 1,
    });
  });

  it('the cheapest verified row is the cheapest among verified vendors only', () => {
    const [d] = dailyPriceStats(
      [
        change({ totalUsd: 20 }),
        change({ vendorSlug: 'beta', vendorName: 'Beta', verified: true, totalUsd: 30 }),
      ],
      DAY0,
      1,
    );
    expect(d!.cheapestInStock?.vendorSlug).toBe('alpha');
    expect(d!.cheapestVerified).toMatchObject({ vendorSlug: 'beta', perMg: 6 });
  });

  it('quartiles are of each in-stock vendor’s lowest $/mg, linearly interpolated', () => {
    const [d] = dailyPriceStats(
      [
        change({ vendorSlug: 'a', totalUsd: 5 }),
        change({ vendorSlug: 'a', totalUsd: 100, vialMg: 10 }), // a's other vial: 10/mg, not its best
        change({ vendorSlug: 'b', totalUsd: 10 }),
        change({ vendorSlug: 'c', totalUsd: 15 }),
        change({ vendorSlug: 'd', totalUsd: 20 }),
        change({ vendorSlug: 'e', totalUsd: 1, inStock: false }),
      ],
      DAY0,
      1,
    );
    expect(d).toMatchObject({ p25: 1.75, median: 2.5, p75: 3.25, vendorCount: 4, listedVendorCount: 5 });
    expect(d!.cheapestInStock).toMatchObject({ vendorSlug: 'a', perMg: 1 });
  });

  it('day edges in UTC: a change at 23:59:59.999 counts that day; one at 00:00 the next day only', () => {
    const days = dailyPriceStats(
      [
        change({ totalUsd: 50, effectiveAt: iso(DAY0 + DAY_MS - 1) }),
        change({ totalUsd: 25, effectiveAt: iso(DAY0 + DAY_MS) }),
        change({ totalUsd: 10, effectiveAt: '2026-06-02T23:30:00.000-01:00' }), // 00:30Z on the 3rd
      ],
      DAY0 - DAY_MS,
      4,
    );
    expect(days.map((d) => [d.date, d.cheapestInStock?.totalUsd ?? null])).toEqual([
      ['2026-05-31', null],
      ['2026-06-01', 50],
      ['2026-06-02', 25],
      ['2026-06-03', 10],
    ]);
  });

  it('a live listing replaces the baseline one of the same vendor and vial, as in the price table', () => {
    const days = dailyPriceStats(
      [
        change({ totalUsd: 50, source: 'baseline' }),
        change({ totalUsd: 60, source: 'live', effectiveAt: iso(DAY0 + DAY_MS) }),
      ],
      DAY0,
      2,
    );
    expect(days.map((d) => d.cheapestInStock?.totalUsd)).toEqual([50, 60]);
  });

  it('of two changes of one listing effective by a day’s end, the later write holds', () => {
    const later = change({ totalUsd: 70, effectiveAt: iso(DAY0 + 1000) });
    const earlierWriteLaterTime = {
      ...change({ totalUsd: 30, effectiveAt: iso(DAY0 + 2000) }),
      seq: later.seq - 1,
    };
    const [d] = dailyPriceStats([later, earlierWriteLaterTime], DAY0, 1);
    expect(d!.cheapestInStock?.totalUsd).toBe(70);
  });

  it('quantile of nothing is null', () => expect(quantile([], 0.5)).toBeNull());

  const changes = fc.array(
    fc.record({
      vendorSlug: fc.constantFrom('a', 'b', 'c', 'd'),
      vendorName: fc.constant('V'),
      verified: fc.boolean(),
      vialMg: fc.constantFrom(1, 5, 10),
      source: fc.constantFrom('baseline' as const, 'live' as const),
      totalUsd: fc.integer({ min: 0, max: 10_000 }),
      inStock: fc.boolean(),
      effectiveAt: fc.integer({ min: DAY0 - 3 * DAY_MS, max: DAY0 + 5 * DAY_MS }).map(iso),
      seq: fc.integer({ min: 1, max: 1_000_000 }),
    }),
    { maxLength: 40 },
  );

  it('property: ordered quartiles within the cheapest and dearest vendor, counts consistent, input order irrelevant', () => {
    fc.assert(
      fc.property(changes, fc.integer({ min: 1, max: 8 }), (list, n) => {
        // Distinct write order, as ids are.
        const unique = list.map((c, i) => ({ ...c, seq: i + 1 }));
        const days = dailyPriceStats(unique, DAY0 - 2 * DAY_MS, n);
        expect(days).toHaveLength(n);
        expect(dailyPriceStats([...unique].reverse(), DAY0 - 2 * DAY_MS, n)).toEqual(days);
        for (const d of days) {
          expect(d.vendorCount).toBeLessThanOrEqual(d.listedVendorCount);
          if (d.vendorCount === 0) {
            expect([d.cheapestInStock, d.median, d.p25, d.p75]).toEqual([null, null, null, null]);
            continue;
          }
          expect(d.p25!).toBeLessThanOrEqual(d.median!);
          expect(d.median!).toBeLessThanOrEqual(d.p75!);
          expect(d.cheapestInStock!.perMg).toBeLessThanOrEqual(d.p25!);
          if (d.cheapestVerified)
            expect(d.cheapestVerified.perMg).toBeGreaterThanOrEqual(d.cheapestInStock!.perMg);
        }
      }),
    );
  });
});

describe('getPriceHistory / getPriceStats', () => {
  const peptide = {
    id: 7,
    slug: 'bpc-157',
    name: 'BPC-157',
    category: 'healing',
    molecularWeight: '',
    aliases: [],
  };
  const seen: string[] = [];
  const stores = {
    catalog: { getPeptide: async (slug: string) => (slug === 'bpc-157' ? peptide : null) },
    priceHistory: {
      listPriceChanges: async (_id: number, before: string) => {
        seen.push(before);
        return [change({ totalUsd: 10, effectiveAt: iso(DAY0 - 10 * DAY_MS) })];
      },
    },
  } as unknown as Parameters<typeof getPriceStats>[0];
  const NOW = DAY0 + 15 * 3_600_000;

  it('today: the summary of the UTC day, valid until the next midnight, read up to its end', async () => {
    const r = await getPriceStats(stores, 'bpc-157', NOW);
    expect(r.today.date).toBe('2026-06-01');
    expect(r.today.cheapestInStock?.perMg).toBe(2);
    expect(r.validUntil).toBe(DAY0 + DAY_MS);
    expect(seen.at(-1)).toBe('2026-06-02T00:00:00.000Z');
  });

  it('history: `days` points ending today', async () => {
    const r = await getPriceHistory(stores, 'bpc-157', 90, NOW);
    expect(r.days).toHaveLength(90);
    expect(r.days[0]!.date).toBe('2026-03-04');
    expect(r.days.at(-1)!.date).toBe('2026-06-01');
    // Listed since ten days ago: nothing before, the price from then on.
    expect(r.days.filter((d) => d.cheapestInStock !== null)).toHaveLength(11);
  });

  it('refuses days outside 1..365 naming the parameter, and an unknown peptide', async () => {
    for (const days of [0, 366, 1.5]) {
      const err = await getPriceHistory(stores, 'bpc-157', days, NOW).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code: 'invalid_parameter' });
      expect((err as Error).message).toContain("'days'");
    }
    await expect(getPriceStats(stores, 'nope', NOW)).rejects.toMatchObject({ code: 'not_found' });
  });
});

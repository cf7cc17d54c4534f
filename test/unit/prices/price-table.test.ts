import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import type { StoredPrice } from '../../../src/core/prices/model.ts';
import {
  DEFAULT_STALENESS,
  mergePriceTable,
  priceTableValidUntil,
} from '../../../src/core/prices/price-table.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const row = (over: Partial<StoredPrice>): StoredPrice => ({
  vendorSlug: 'alpha',
  vendorName: 'Alpha',
  claimed: false,
  vialMg: 5,
  totalUsd: 50,
  inStock: true,
  source: 'baseline',
  updatedAt: ago(DAY_MS),
  ...over,
});
const keys = (rows: { vendorSlug: string; vialMg: number; live: boolean }[]) =>
  rows.map((r) => `${r.vendorSlug}/${r.vialMg}/${r.live ? 'live' : 'base'}`);

describe('mergePriceTable', () => {
  it('presents a row with its exact price per mg and flags', () => {
    expect(
      mergePriceTable(
        [row({ totalUsd: 42.5, vialMg: 3, claimed: true, source: 'live', updatedAt: ago(HOUR_MS) })],
        NOW,
      ),
    ).toEqual([
      {
        vendorSlug: 'alpha',
        vendorName: 'Alpha',
        totalUsd: 42.5,
        vialMg: 3,
        perMg: 42.5 / 3,
        inStock: true,
        claimed: true,
        live: true,
        stale: false,
        updatedAt: ago(HOUR_MS),
      },
    ]);
  });

  it('replaces the baseline row of the same vendor and vial size with the live one, and nothing else', () => {
    const rows = [
      row({ vendorSlug: 'alpha', vialMg: 5, source: 'baseline', totalUsd: 50 }),
      row({ vendorSlug: 'alpha', vialMg: 5, source: 'live', totalUsd: 45 }),
      row({ vendorSlug: 'alpha', vialMg: 10, source: 'baseline', totalUsd: 80 }),
      row({ vendorSlug: 'beta', vialMg: 5, source: 'baseline', totalUsd: 40 }),
      row({ vendorSlug: 'gamma', vialMg: 2, source: 'live', totalUsd: 30 }),
    ];
    const merged = mergePriceTable(rows, NOW);
    expect(keys(merged).sort()).toEqual(['alpha/10/base', 'alpha/5/live', 'beta/5/base', 'gamma/2/live']);
    expect(merged.find((r) => r.vendorSlug === 'alpha' && r.vialMg === 5)?.totalUsd).toBe(45);
  });

  it('keeps a live row even when it is stale or out of stock (it still replaces the baseline)', () => {
    const merged = mergePriceTable(
      [
        row({ source: 'baseline', inStock: true }),
        row({ source: 'live', inStock: false, updatedAt: ago(10 * DAY_MS) }),
      ],
      NOW,
    );
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ live: true, inStock: false, stale: true });
  });

  it('sorts in-stock first, then claimed vendors, then price per mg, then vendor slug, then vial size', () => {
    const rows = [
      row({ vendorSlug: 'oos-cheap', inStock: false, totalUsd: 1, vialMg: 10 }),
      row({ vendorSlug: 'unclaimed-cheap', totalUsd: 10, vialMg: 10 }), // 1/mg
      row({ vendorSlug: 'claimed-dear', claimed: true, totalUsd: 100, vialMg: 10 }), // 10/mg
      row({ vendorSlug: 'claimed-cheap', claimed: true, totalUsd: 20, vialMg: 10 }), // 2/mg
      row({ vendorSlug: 'unclaimed-b', totalUsd: 30, vialMg: 10 }), // 3/mg
      row({ vendorSlug: 'unclaimed-a', totalUsd: 30, vialMg: 10 }), // 3/mg, slug a < b
      row({ vendorSlug: 'unclaimed-a', totalUsd: 15, vialMg: 5 }), // 3/mg, same slug, smaller vial
      row({ vendorSlug: 'oos-claimed', claimed: true, inStock: false, totalUsd: 500, vialMg: 10 }),
    ];
    expect(mergePriceTable(rows, NOW).map((r) => `${r.vendorSlug}/${r.vialMg}`)).toEqual([
      'claimed-cheap/10',
      'claimed-dear/10',
      'unclaimed-cheap/10',
      'unclaimed-a/5',
      'unclaimed-a/10',
      'unclaimed-b/10',
      'oos-claimed/10',
      'oos-cheap/10',
    ]);
  });

  it('compares exact prices per mg, not rounded ones', () => {
    // 10/3 = 3.3333… and 3.3334/1: rounded to 4 places they tie; exactly, "third" is cheaper.
    const rows = [
      row({ vendorSlug: 'a-dear', totalUsd: 3.3334, vialMg: 1 }),
      row({ vendorSlug: 'z-third', totalUsd: 10, vialMg: 3 }),
    ];
    expect(mergePriceTable(rows, NOW).map((r) => r.vendorSlug)).toEqual(['z-third', 'a-dear']);
  });

  it('uses 72 hours for live rows and 90 days for baseline rows by default', () => {
    expect(DEFAULT_STALENESS).toEqual({ liveStaleMs: 72 * HOUR_MS, baselineStaleMs: 90 * DAY_MS });
  });

  it.each([
    ['live', 72 * HOUR_MS, false],
    ['live', 72 * HOUR_MS + 1, true],
    ['live', 71 * HOUR_MS, false],
    ['live', 0, false],
    ['baseline', 90 * DAY_MS, false],
    ['baseline', 90 * DAY_MS + 1, true],
    ['baseline', 72 * HOUR_MS + 1, false],
    ['baseline', 400 * DAY_MS, true],
  ] as const)('a %s row updated %i ms ago is stale: %s', (source, age, stale) => {
    expect(mergePriceTable([row({ source, updatedAt: ago(age) })], NOW)[0]?.stale).toBe(stale);
  });

  it('honours custom staleness rules', () => {
    const rules = { liveStaleMs: HOUR_MS, baselineStaleMs: DAY_MS };
    expect(
      mergePriceTable([row({ source: 'live', updatedAt: ago(HOUR_MS + 1) })], NOW, rules)[0]?.stale,
    ).toBe(true);
    expect(mergePriceTable([row({ source: 'baseline', updatedAt: ago(DAY_MS) })], NOW, rules)[0]?.stale).toBe(
      false,
    );
  });

  it('returns an empty table for no rows and does not mutate its input', () => {
    expect(mergePriceTable([], NOW)).toEqual([]);
    const input = [row({ vendorSlug: 'b' }), row({ vendorSlug: 'a' })];
    const copy = structuredClone(input);
    mergePriceTable(input, NOW);
    expect(input).toEqual(copy);
  });
});

describe('priceTableValidUntil', () => {
  it('is the moment the next fresh row turns stale (strictly older than its threshold)', () => {
    const rows = mergePriceTable(
      [
        row({ vendorSlug: 'live', source: 'live', updatedAt: ago(70 * HOUR_MS) }), // stale at +2 h + 1 ms
        row({ vendorSlug: 'base', source: 'baseline', updatedAt: ago(DAY_MS) }), // stale at +89 d + 1 ms
        row({ vendorSlug: 'old', source: 'baseline', updatedAt: ago(100 * DAY_MS) }), // already stale
      ],
      NOW,
    );
    const until = priceTableValidUntil(rows);
    expect(until).toBe(NOW + 2 * HOUR_MS + 1);
    // The table is the same one millisecond before, and differs at the instant.
    const input = [row({ vendorSlug: 'live', source: 'live', updatedAt: ago(70 * HOUR_MS) })];
    expect(mergePriceTable(input, NOW + 2 * HOUR_MS)[0]?.stale).toBe(false);
    expect(mergePriceTable(input, NOW + 2 * HOUR_MS + 1)[0]?.stale).toBe(true);
  });

  it('uses the rules it is given, and is Infinity when no row can turn stale', () => {
    const rules = { liveStaleMs: HOUR_MS, baselineStaleMs: DAY_MS };
    const rows = mergePriceTable([row({ source: 'baseline', updatedAt: ago(HOUR_MS) })], NOW, rules);
    expect(priceTableValidUntil(rows, rules)).toBe(NOW - HOUR_MS + DAY_MS + 1);
    expect(priceTableValidUntil(mergePriceTable([row({ updatedAt: ago(400 * DAY_MS) })], NOW))).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(priceTableValidUntil([])).toBe(Number.POSITIVE_INFINITY);
  });
});

import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { PriceRecord } from '../../../src/core/import/records.ts';
import { TOTAL_USD_BOUNDS, VIAL_MG_BOUNDS } from '../../../src/core/prices/bounds.ts';
import type { StoredPrice } from '../../../src/core/prices/model.ts';
import { mergePriceTable } from '../../../src/core/prices/price-table.ts';
import { ListingRowBody } from '../../../src/http/admin/schemas.ts';

const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const stored = (vialMg: number, totalUsd: number, source: 'baseline' | 'live' = 'live'): StoredPrice => ({
  vendorSlug: `v-${vialMg}-${totalUsd}`,
  vendorName: 'V',
  claimed: false,
  vialMg,
  totalUsd,
  inStock: true,
  source,
  updatedAt: '2026-05-31T00:00:00.000Z',
});
const corners = [VIAL_MG_BOUNDS.min, 1, VIAL_MG_BOUNDS.max].flatMap((vialMg) =>
  [TOTAL_USD_BOUNDS.min, 0.01, TOTAL_USD_BOUNDS.max].map((totalUsd) => ({ vialMg, totalUsd })),
);

/** Guard: no price row of any table carries a number JSON would turn into null (core/prices/bounds.ts). */
describe('price rows: finite numbers only', () => {
  it('every row within the bounds has a finite perMg, even when rounded for the API', () => {
    const table = mergePriceTable(
      corners.map((c) => stored(c.vialMg, c.totalUsd)),
      NOW,
    );
    expect(table).toHaveLength(corners.length);
    for (const row of table) {
      for (const n of [row.totalUsd, row.vialMg, row.perMg, Math.round(row.perMg * 10_000) / 10_000]) {
        expect(Number.isFinite(n), JSON.stringify(row)).toBe(true);
      }
    }
  });

  it('the import record and the listing row take the same bounds; nothing outside them', () => {
    const record = (vialMg: number, totalUsd: number) => ({
      type: 'price',
      vendorSlug: 'v',
      peptideSlug: 'p',
      vialMg,
      source: 'live',
      totalUsd,
      inStock: true,
      updatedAt: '2026-05-31T00:00:00.000Z',
    });
    const row = (vialMg: number, totalUsd: number) => ({ peptideSlug: 'p', vialMg, totalUsd, inStock: true });
    for (const c of corners) {
      expect(Value.Check(PriceRecord, record(c.vialMg, c.totalUsd))).toBe(true);
      expect(Value.Check(ListingRowBody, row(c.vialMg, c.totalUsd))).toBe(true);
    }
    for (const [vialMg, totalUsd] of [
      [5e-324, 1],
      [1e-320, 1],
      [0.000_999, 1],
      [VIAL_MG_BOUNDS.max * 1.000_001, 1],
      [1, TOTAL_USD_BOUNDS.max + 0.01],
      [1, -0.01],
    ] as const) {
      expect(Value.Check(PriceRecord, record(vialMg, totalUsd)), `${vialMg} ${totalUsd}`).toBe(false);
      expect(Value.Check(ListingRowBody, row(vialMg, totalUsd)), `${vialMg} ${totalUsd}`).toBe(false);
    }
  });

  it('a row stored before the bounds whose perMg is not finite is left out, not served as null', () => {
    const table = mergePriceTable([stored(5e-324, 1000), stored(1e-320, 1_000_000), stored(5, 45)], NOW);
    expect(table.map((r) => r.vialMg)).toEqual([5]);
    expect(JSON.stringify(table)).not.toContain('null');
  });
});

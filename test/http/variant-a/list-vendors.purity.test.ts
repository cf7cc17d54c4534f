import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectList, type Fixture, iso, LAB, scoredVendor, setupFixture } from './fixtures.ts';

/*
 * `purity` text for means that need rounding to one decimal (exact decimal means, half up):
 *   99.1, 98.0        → 98.55  → "98.6%"
 *   99.3, 99.0        → 99.15  → "99.2%"
 *   99.05, 99.0       → 99.025 → "99%"    (99.0, ".0" dropped)
 *   100, 99.9         → 99.95  → "100%"   (rounds up into the next integer)
 *   99.1, 99.1, 99.2  → 99.133 → "99.1%"
 *   100               → 100    → "100%"
 *   0.04, 0           → 0.02   → "0%"
 * Each vendor gets a distinct flat score so the list order is fixed: pv-0 scores 60, pv-1 59, ...
 */
const CASES: [purities: number[], text: string][] = [
  [[99.1, 98.0], '98.6%'],
  [[99.3, 99.0], '99.2%'],
  [[99.05, 99.0], '99%'],
  [[100, 99.9], '100%'],
  [[99.1, 99.1, 99.2], '99.1%'],
  [[100], '100%'],
  [[0.04, 0], '0%'],
];

describe.each(DIALECTS)('GET /v1/vendors, purity text rounding (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    const records: Record<string, unknown>[] = [];
    CASES.forEach(([purities], i) => {
      records.push(...scoredVendor(`pv-${i}`, `Purity Vendor ${i}`, 'Iceland', 60 - i));
      purities.forEach((purity, j) => {
        records.push({
          type: 'batch',
          vendorSlug: `pv-${i}`,
          batchId: `PV${i}-${j}`,
          peptideSlug: 'bpc-157',
          status: 'approved',
          purity,
          lab: LAB.slug,
          testMethod: 'HPLC',
          testedAt: iso(-(j + 1) * DAY_MS),
        });
      });
    });
    const r = await f.ctx.load(records);
    if (!r.ok) throw new Error(JSON.stringify(r));
  });
  afterAll(async () => f?.ctx.close());

  it.each(CASES.map(([p, text], i) => [p.join(' + '), text, i] as const))(
    'approved purities %s → %s',
    async (_p, text, i) => {
      const data = expectList(await f.get(`${A}/vendors?per_page=200`), true).data as {
        slug: string;
        purity: string | null;
      }[];
      expect(data.find((v) => v.slug === `pv-${i}`)?.purity).toBe(text);
    },
  );
});

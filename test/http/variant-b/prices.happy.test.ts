import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import {
  B,
  EMPTY_PEPTIDE,
  expectEnvelope,
  type Fixture,
  iso,
  PEPTIDE,
  PRICE_TABLE_AT_T0,
  setupFixture,
} from './fixtures.ts';

const ROW_KEYS = [
  'claimed',
  'inStock',
  'live',
  'perMg',
  'stale',
  'totalUsd',
  'updatedAt',
  'vendorName',
  'vendorSlug',
  'vialMg',
];
type Row = (typeof PRICE_TABLE_AT_T0)[number];
const id = (r: Pick<Row, 'vendorSlug' | 'vialMg' | 'live'>) =>
  `${r.vendorSlug}/${r.vialMg}mg/${r.live ? 'live' : 'baseline'}`;

describe.each(DIALECTS)('GET /api/v1/peptides/{slug}/prices, happy paths (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('returns the merged table, exactly, in the documented order', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    expect(Object.keys(data).sort()).toEqual(['category', 'name', 'prices', 'slug']);
    expect(data).toEqual({ ...PEPTIDE, prices: PRICE_TABLE_AT_T0 });
  });

  it('price rows have exactly the fields of the spec', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    for (const r of data.prices) expect(Object.keys(r).sort()).toEqual(ROW_KEYS);
  });

  it('a live row replaces the baseline row of the same vendor and vial size only', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    const apex = data.prices.filter((r: Row) => r.vendorSlug === 'apex').map(id);
    // apex baseline 5 mg ($60) is hidden by apex live 5 mg ($45); apex baseline 10 mg stays.
    expect(apex.sort()).toEqual(['apex/10mg/baseline', 'apex/5mg/live']);
    expect(data.prices.some((r: Row) => r.vendorSlug === 'apex' && r.totalUsd === 60)).toBe(false);
    // beta has a baseline at 5 mg and a live row at 10 mg: different sizes, both kept.
    expect(data.prices.filter((r: Row) => r.vendorSlug === 'beta').map(id)).toEqual([
      'beta/10mg/live',
      'beta/5mg/baseline',
    ]);
  });

  it('in stock first, then claimed, then exact perMg (rounding ties do not decide)', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    const order = data.prices.map(id);
    // Claimed halfway at 9.5/mg ranks above unclaimed zeta at 5/mg; in-stock unclaimed borealis at
    // 15/mg ranks above out-of-stock claimed halfway at 50/mg and out-of-stock beta at 3/mg.
    expect(order.indexOf('halfway/10mg/baseline')).toBeLessThan(order.indexOf('zeta/2mg/live'));
    expect(order.indexOf('borealis/2mg/baseline')).toBeLessThan(order.indexOf('halfway/1mg/baseline'));
    expect(order.indexOf('halfway/1mg/baseline')).toBeLessThan(order.indexOf('beta/10mg/live'));
    // zeta 10/2 = 5 and alpha2 10.00001/2 = 5.000005 both show 5, but zeta is cheaper (although
    // "alpha2" < "zeta" by slug).
    const zeta = order.indexOf('zeta/2mg/live');
    expect(order[zeta + 1]).toBe('alpha2/2mg/live');
    expect(data.prices[zeta].perMg).toBe(5);
    expect(data.prices[zeta + 1].perMg).toBe(5);
    // The first in-stock row is the best price among claimed vendors: halfway 10/3 = 3.3333.
    expect(data.prices[0]).toMatchObject({ vendorSlug: 'halfway', vialMg: 3, perMg: 3.3333 });
  });

  it('perMg is totalUsd / vialMg rounded to 4 decimals', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    expect(data.prices.map((r: Row) => r.perMg)).toEqual([3.3333, 9.5, 5, 5, 8, 8, 9, 15, 50, 3, 4]);
  });

  it('claimed and live flags', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    expect(data.prices.filter((r: Row) => r.claimed).map(id)).toEqual([
      'halfway/3mg/live',
      'halfway/10mg/baseline',
      'halfway/1mg/baseline',
    ]);
    expect(data.prices.filter((r: Row) => r.live).map(id)).toEqual([
      'halfway/3mg/live',
      'zeta/2mg/live',
      'alpha2/2mg/live',
      'borealis/5mg/live',
      'apex/5mg/live',
      'beta/10mg/live',
    ]);
  });

  it('a peptide with no listings has an empty table', async () => {
    const data = expectEnvelope(await f.get(`${B}/peptides/tb-500/prices`));
    expect(data).toEqual({ ...EMPTY_PEPTIDE, prices: [] });
  });

  it('staleness: live > 72 h and baseline > 90 days, strictly, as the clock moves', async () => {
    let data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`));
    const staleAt = (d: { prices: Row[] }) =>
      d.prices
        .filter((r) => r.stale)
        .map(id)
        .sort();
    // At T0: live 72 h exactly and baseline 90 d exactly are fresh; +1 ms past either is stale.
    expect(staleAt(data)).toEqual(['beta/10mg/live', 'borealis/2mg/baseline']);

    f.ctx.clock.advance(1);
    data = expectEnvelope(await f.get(`${B}/peptides/bpc-157/prices`), iso(0));
    expect(staleAt(data)).toEqual([
      'beta/10mg/live',
      'borealis/2mg/baseline',
      'borealis/5mg/live',
      'halfway/10mg/baseline',
    ]);
    // Staleness does not reorder the table.
    expect(data.prices.map(id)).toEqual(PRICE_TABLE_AT_T0.map(id));
  });
});

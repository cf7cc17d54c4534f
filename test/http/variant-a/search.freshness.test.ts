import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectOk, type Fixture, scoredVendor, setupFixture, slugs } from './fixtures.ts';

/** The index follows the data: every import is visible on the next request, without a restart. */
describe.each(DIALECTS)('GET /v1/search after imports (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const search = async (q: string) => expectOk(await f.get(`${A}/search?q=${encodeURIComponent(q)}`));
  const load = async (records: Record<string, unknown>[]) => {
    f.ctx.clock.advance(HOUR_MS);
    const r = await f.ctx.load(records);
    expect(r.ok, JSON.stringify(r)).toBe(true);
  };

  it('a newly imported scored vendor is found on the next request', async () => {
    expect(await search('zephyr')).toEqual({ vendors: [], peptides: [] }); // also primes any cache
    await load(scoredVendor('zephyr', 'Zephyr Labs', 'Malta', 85));
    expect(await search('zephyr')).toEqual({
      vendors: [{ slug: 'zephyr', name: 'Zephyr Labs', score: 85, tier: 'gold', verified: true }],
      peptides: [],
    });
    expect(slugs((await search('zeph')).vendors)).toEqual(['zephyr']);
  });

  it('a vendor imported without scores is not found until it is scored', async () => {
    await load([
      { type: 'vendor', slug: 'quasar', name: 'Quasar Peptides', location: 'Malta', verified: true },
    ]);
    expect((await search('quasar')).vendors).toEqual([]);
    await load(scoredVendor('quasar', 'Quasar Peptides', 'Malta', 75));
    expect(slugs((await search('quasar')).vendors)).toEqual(['quasar']);
  });

  it('a rename moves the vendor to its new name; a score change re-orders ties', async () => {
    await load([{ type: 'vendor', slug: 'orion-two', name: 'Polaris Two', location: 'Norway' }]);
    expect((await search('polaris')).vendors).toEqual([
      { slug: 'orion-two', name: 'Polaris Two', score: 79, tier: 'silver', verified: true },
    ]);
    // Still found by its slug, but orion-one (name and slug) is now the more relevant "orion".
    expect(slugs((await search('orion')).vendors)).toEqual(['orion-one', 'orion-two']);
    // orion-one 70 → 95: now first among the equally relevant Norway vendors.
    await load(scoredVendor('orion-one', 'Orion One', 'Norway', 95));
    expect((await search('norway')).vendors).toEqual([
      { slug: 'orion-one', name: 'Orion One', score: 95, tier: 'platinum', verified: true },
      { slug: 'orion-two', name: 'Polaris Two', score: 79, tier: 'silver', verified: true },
    ]);
  });

  it('a new peptide, its aliases, and a new listing (vendor_count) show up', async () => {
    expect((await search('retatrutide')).peptides).toEqual([]);
    await load([
      {
        type: 'peptide',
        slug: 'retatrutide',
        name: 'Retatrutide',
        category: 'metabolic',
        molecularWeight: '4731.3 g/mol',
        aliases: ['LY3437943'],
      },
      {
        type: 'price',
        vendorSlug: 'zephyr',
        peptideSlug: 'retatrutide',
        vialMg: 10,
        source: 'live',
        totalUsd: 120,
        inStock: true,
        updatedAt: new Date(f.ctx.clock.now()).toISOString(),
      },
      // A tested purity on record puts zephyr in Variant A's rankings (decision 0016), so it counts.
      {
        type: 'batch',
        vendorSlug: 'zephyr',
        batchId: 'ZE-1',
        peptideSlug: 'retatrutide',
        status: 'approved',
        purity: 99.2,
        lab: 'janoshik',
        testMethod: 'HPLC',
        testedAt: new Date(f.ctx.clock.now()).toISOString(),
      },
    ]);
    const expected = { slug: 'retatrutide', name: 'Retatrutide', category: 'metabolic', vendor_count: 1 };
    expect((await search('retatrutide')).peptides).toEqual([expected]);
    expect((await search('ly3437943')).peptides).toEqual([expected]);
  });
});

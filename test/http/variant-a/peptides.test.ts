import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  A,
  expectError,
  expectList,
  type Fixture,
  LIBRARY,
  overrides,
  setupFixture,
  slugs,
} from './fixtures.ts';

const ITEM_KEYS = ['category', 'molecular_weight', 'name', 'slug', 'vendor_count'];

describe.each(DIALECTS)('GET /v1/peptides (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('every peptide, by name, as {data, total}', async () => {
    const body = expectList(await f.get(`${A}/peptides`), false);
    // By name: "Bremelanotide" (slug pt-141) sorts second although its slug would sort near last.
    expect(body).toEqual({ data: LIBRARY, total: 7 });
  });

  it('items carry exactly slug, name, category, vendor_count, molecular_weight', async () => {
    for (const p of expectList(await f.get(`${A}/peptides`), false).data) {
      expect(Object.keys(p).sort()).toEqual(ITEM_KEYS);
    }
  });

  it('vendor_count counts verified, scored listers only', async () => {
    const data = expectList(await f.get(`${A}/peptides`), false).data as {
      slug: string;
      vendor_count: number;
    }[];
    const count = Object.fromEntries(data.map((p) => [p.slug, p.vendor_count]));
    expect(count['bpc-157']).toBe(5); // 8 vendors list it; borealis (unverified), unscored and bare do not count
    expect(count.semaglutide).toBe(0); // only borealis (unverified) lists it
    expect(count['ghk-cu']).toBe(0); // only unscored vendors list it
    expect(count.ipamorelin).toBe(0); // nobody lists it
    expect(count['tb-500']).toBe(3);
  });

  it.each([
    ['healing', ['bpc-157', 'tb-500']],
    ['HEALING', ['bpc-157', 'tb-500']],
    ['Metabolic', ['semaglutide', 'tirzepatide']],
    ['growth-hormone', ['ipamorelin']],
    ['sexual-health', ['pt-141']],
  ])('category=%s filters exactly (case-insensitively)', async (category, expected) => {
    const body = expectList(await f.get(`${A}/peptides?category=${category}`), false);
    expect(slugs(body.data)).toEqual(expected);
    expect(body.total).toBe(expected.length);
    expect(body.data).toEqual(LIBRARY.filter((p) => expected.includes(p.slug)));
  });

  it.each(['nope', 'heal', 'healingx', 'growth', 'hormone', 'bpc-157'])(
    'category=%s (no exact match) → empty list',
    async (category) => {
      expect(expectList(await f.get(`${A}/peptides?category=${category}`), false)).toEqual({
        data: [],
        total: 0,
      });
    },
  );

  it('category filters do not leak into each other through caching', async () => {
    expect(expectList(await f.get(`${A}/peptides?category=cosmetic`), false).total).toBe(1);
    expect(expectList(await f.get(`${A}/peptides`), false).total).toBe(7);
    expect(expectList(await f.get(`${A}/peptides?category=healing`), false).total).toBe(2);
  });

  it('a category over 64 characters → 400 invalid_parameter naming category', async () => {
    const err = expectError(
      await f.get(`${A}/peptides?category=${'a'.repeat(65)}`),
      400,
      'invalid_parameter',
    );
    expect(err.message).toContain("'category'");
  });

  it('consistency: vendor_count equals the length of /peptides/{slug}/vendors for EVERY peptide', async () => {
    const data = expectList(await f.get(`${A}/peptides`), false).data as {
      slug: string;
      vendor_count: number;
    }[];
    expect(data).toHaveLength(7);
    for (const p of data) {
      const res = await f.get(`${A}/peptides/${p.slug}/vendors`);
      expect(res.statusCode).toBe(200);
      expect(res.json().vendors.length, p.slug).toBe(p.vendor_count);
    }
  });

  it('consistency still holds after an import verifies borealis and unscores alpha2', async () => {
    f.ctx.clock.advance(HOUR_MS);
    const r = await f.ctx.load([
      { type: 'vendor', slug: 'borealis', name: 'Borealis Research', location: 'Canada', verified: true },
      // Rejecting its one approved batch leaves alpha2 without computed pillars, and clearing a pillar
      // override then leaves it without a coa pillar: unscored.
      { type: 'batch', vendorSlug: 'alpha2', batchId: 'AL-1', peptideSlug: 'tb-500', status: 'rejected' },
      { type: 'override', vendorSlug: 'alpha2', field: 'coa', value: null, reason: 'test' },
      ...overrides('nova', { coa: 69 }), // unchanged, harmless
    ]);
    expect(r.ok).toBe(true);
    const data = expectList(await f.get(`${A}/peptides`), false).data as {
      slug: string;
      vendor_count: number;
    }[];
    const count = Object.fromEntries(data.map((p) => [p.slug, p.vendor_count]));
    // bpc-157: apex, novara, halfway, borealis (now verified), nova = 5 (alpha2 dropped, borealis added)
    // tb-500: zeta, beta, borealis = 3 (alpha2 dropped, borealis added); semaglutide: borealis = 1
    expect(count).toEqual({
      'bpc-157': 5,
      'pt-141': 1,
      'ghk-cu': 0,
      ipamorelin: 0,
      semaglutide: 1,
      'tb-500': 3,
      tirzepatide: 3,
    });
    for (const p of data) {
      expect((await f.get(`${A}/peptides/${p.slug}/vendors`)).json().vendors.length, p.slug).toBe(
        p.vendor_count,
      );
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { bearer, createTestContext, T0, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectEnvelope, expectError } from './fixtures.ts';

/*
 * A hand-checked history. The clock stands at T0 = 2026-06-01T12:00Z, so "today" is 2026-06-01.
 *   alpha (verified)  5 mg $50 from 05-30 10:00Z (10/mg), $40 from 05-31 00:00:00.000Z (8/mg)
 *   beta              5 mg $30 from 05-30 23:59:59.999Z (6/mg), out of stock from 06-01 08:00Z
 *   gamma             2 mg $10, out of stock all along, listed from 05-31 (a listing, not in stock)
 * Per day (quartiles of each in-stock vendor's lowest $/mg):
 *   05-29  nothing listed
 *   05-30  alpha 10, beta 6  → cheapest beta 6, verified alpha 10, p25 7, median 8, p75 9, 2 of 2
 *   05-31  alpha 8, beta 6   → cheapest beta 6, verified alpha 8, p25 6.5, median 7, p75 7.5, 2 of 3
 *   06-01  alpha 8 (beta out) → cheapest = verified = alpha 8, quartiles 8, 1 in stock of 3 listed
 */
const LOADED_AT = new Date(T0).toISOString();
const price = (
  vendorSlug: string,
  vialMg: number,
  totalUsd: number,
  inStock: boolean,
  updatedAt: string,
) => ({
  type: 'price',
  vendorSlug,
  peptideSlug: 'bpc-157',
  vialMg,
  source: 'baseline',
  totalUsd,
  inStock,
  updatedAt,
});
const REFS = [
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  { type: 'peptide', slug: 'tb-500', name: 'TB-500', category: 'healing', molecularWeight: '4963.4 g/mol' },
  {
    type: 'vendor',
    slug: 'alpha',
    name: 'Alpha Labs',
    verified: true,
    verifiedAt: '2026-01-01T00:00:00.000Z',
  },
  { type: 'vendor', slug: 'beta', name: 'Beta Peptides' },
  { type: 'vendor', slug: 'gamma', name: 'Gamma Research' },
];
const WRITES = [
  [
    ...REFS,
    price('alpha', 5, 50, true, '2026-05-30T10:00:00.000Z'),
    price('beta', 5, 30, true, '2026-05-30T23:59:59.999Z'),
  ],
  [
    price('alpha', 5, 40, true, '2026-05-31T00:00:00.000Z'),
    price('gamma', 2, 10, false, '2026-05-31T06:00:00.000Z'),
  ],
  [price('beta', 5, 30, false, '2026-06-01T08:00:00.000Z')],
];

const row = (vendorSlug: string, vendorName: string, perMg: number, totalUsd: number, vialMg = 5) => ({
  vendorSlug,
  vendorName,
  perMg,
  totalUsd,
  vialMg,
});
const ALPHA_10 = row('alpha', 'Alpha Labs', 10, 50);
const ALPHA_8 = row('alpha', 'Alpha Labs', 8, 40);
const BETA_6 = row('beta', 'Beta Peptides', 6, 30);
const empty = (date: string) => ({
  date,
  cheapestInStock: null,
  cheapestVerified: null,
  median: null,
  p25: null,
  p75: null,
  vendorCount: 0,
  listedVendorCount: 0,
});
const POINTS = [
  empty('2026-05-29'),
  {
    date: '2026-05-30',
    cheapestInStock: BETA_6,
    cheapestVerified: ALPHA_10,
    median: 8,
    p25: 7,
    p75: 9,
    vendorCount: 2,
    listedVendorCount: 2,
  },
  {
    date: '2026-05-31',
    cheapestInStock: BETA_6,
    cheapestVerified: ALPHA_8,
    median: 7,
    p25: 6.5,
    p75: 7.5,
    vendorCount: 2,
    listedVendorCount: 3,
  },
  {
    date: '2026-06-01',
    cheapestInStock: ALPHA_8,
    cheapestVerified: ALPHA_8,
    median: 8,
    p25: 8,
    p75: 8,
    vendorCount: 1,
    listedVendorCount: 3,
  },
];
const PEPTIDE = { slug: 'bpc-157', name: 'BPC-157', category: 'healing' };

describe.each(DIALECTS)('GET /api/v1/peptides/{slug}/price-stats and /price-history (%s)', (dialect) => {
  let ctx: TestContext;
  let key: string;
  const get = (url: string, k = key) => ctx.app.inject({ method: 'GET', url, headers: bearer(k) });

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    for (const records of WRITES) {
      const r = await ctx.load(records);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
    }
    key = await ctx.keyFor('enterprise');
  });
  afterAll(async () => ctx?.close());

  it("price-stats: today's statistics with the vendors of the cheapest in-stock and cheapest verified rows", async () => {
    const data = expectEnvelope(await get(`${B}/peptides/bpc-157/price-stats`), LOADED_AT);
    expect(data).toEqual({ ...PEPTIDE, stats: POINTS[3] });
  });

  it('price-history: one point per UTC day ending today, day edges at 00:00Z', async () => {
    const data = expectEnvelope(await get(`${B}/peptides/bpc-157/price-history?days=4`), LOADED_AT);
    expect(data).toEqual({ ...PEPTIDE, days: 4, points: POINTS });
  });

  it('price-history: 90 days by default, 1 and 365 at the bounds', async () => {
    const d90 = expectEnvelope(await get(`${B}/peptides/bpc-157/price-history`), LOADED_AT);
    expect(d90.days).toBe(90);
    expect(d90.points).toHaveLength(90);
    expect(d90.points[0].date).toBe('2026-03-04');
    expect(d90.points.slice(-4)).toEqual(POINTS);
    const d1 = expectEnvelope(await get(`${B}/peptides/bpc-157/price-history?days=1`), LOADED_AT);
    expect(d1.points).toEqual([POINTS[3]]);
    const d365 = expectEnvelope(await get(`${B}/peptides/bpc-157/price-history?days=365`), LOADED_AT);
    expect(d365.points).toHaveLength(365);
    expect(d365.points[0].date).toBe('2025-06-02');
  });

  it.each([
    ['days=0', "Parameter 'days' must be at least 1."],
    ['days=366', "Parameter 'days' must be at most 365."],
    ['days=abc', "Parameter 'days' must be an integer."],
    ['days=1.5', "Parameter 'days' must be an integer."],
    ['days=-3', "Parameter 'days' must be at least 1."],
  ])('price-history?%s → 400 invalid_parameter naming days', async (query, message) => {
    const err = expectError(
      await get(`${B}/peptides/bpc-157/price-history?${query}`),
      400,
      'invalid_parameter',
    );
    expect(err.message).toBe(message);
  });

  it('a peptide with no listing: null statistics and zero counts; an unknown one: 404', async () => {
    const stats = expectEnvelope(await get(`${B}/peptides/tb-500/price-stats`), LOADED_AT);
    expect(stats.stats).toEqual(empty('2026-06-01'));
    const history = expectEnvelope(await get(`${B}/peptides/tb-500/price-history?days=2`), LOADED_AT);
    expect(history.points).toEqual([empty('2026-05-31'), empty('2026-06-01')]);
    expectError(await get(`${B}/peptides/nope/price-stats`), 404, 'not_found');
    expectError(await get(`${B}/peptides/nope/price-history`), 404, 'not_found');
  });

  it('the price table itself is unchanged (no statistics in it)', async () => {
    const data = expectEnvelope(await get(`${B}/peptides/bpc-157/prices`), LOADED_AT);
    expect(Object.keys(data).sort()).toEqual(['category', 'name', 'prices', 'slug']);
  });

  it('cached per data version: the same ETag until a write, then the new statistics', async () => {
    const first = await get(`${B}/peptides/bpc-157/price-stats`);
    const again = await get(`${B}/peptides/bpc-157/price-stats`);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body).toBe(first.body);
    const notModified = await ctx.app.inject({
      method: 'GET',
      url: `${B}/peptides/bpc-157/price-stats`,
      headers: { ...bearer(key), 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    const r = await ctx.load([price('beta', 5, 25, true, '2026-06-01T11:00:00.000Z')]);
    expect(r.ok).toBe(true);
    const after = await get(`${B}/peptides/bpc-157/price-stats`);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.json().data.stats.cheapestInStock).toEqual(row('beta', 'Beta Peptides', 5, 25));
  });

  it('a new UTC day moves "today" without any write (the cached body is valid until midnight)', async () => {
    const before = await get(`${B}/peptides/bpc-157/price-history?days=2`);
    expect(before.json().data.points.map((p: { date: string }) => p.date)).toEqual([
      '2026-05-31',
      '2026-06-01',
    ]);
    ctx.clock.set(T0 + DAY_MS);
    try {
      const next = await get(`${B}/peptides/bpc-157/price-history?days=2`);
      expect(next.json().data.points.map((p: { date: string }) => p.date)).toEqual([
        '2026-06-01',
        '2026-06-02',
      ]);
      // Nothing changed overnight: the new day carries the standing listings.
      expect(next.json().data.points[1].cheapestInStock).toEqual(row('beta', 'Beta Peptides', 5, 25));
    } finally {
      ctx.clock.set(T0);
    }
  });

  it('rate-limited like every Variant B route: both count against the rolling 24 h quota', async () => {
    const limited = await ctx.keyFor('custom', undefined, { rateLimitB: 2 });
    const a = await get(`${B}/peptides/bpc-157/price-stats`, limited);
    expect(a.statusCode).toBe(200);
    expect(a.headers['x-ratelimit-limit']).toBe('2');
    expect(a.headers['x-ratelimit-remaining']).toBe('1');
    expect((await get(`${B}/peptides/bpc-157/price-history`, limited)).statusCode).toBe(200);
    const refused = expectError(await get(`${B}/peptides/bpc-157/price-stats`, limited), 429, 'rate_limited');
    expect(refused.message).toContain('24 hours');
  });

  it('needs a key', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${B}/peptides/bpc-157/price-stats` });
    expectError(res, 401, 'invalid_api_key');
  });
});

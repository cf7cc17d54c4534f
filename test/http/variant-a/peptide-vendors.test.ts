import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  A,
  expectError,
  expectOk,
  type Fixture,
  iso,
  overrides,
  PEPTIDE_RANKINGS,
  setupFixture,
} from './fixtures.ts';

describe.each(DIALECTS)('GET /v1/peptides/{slug}/vendors (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it.each(Object.entries(PEPTIDE_RANKINGS))(
    '%s: {peptide, vendors:[{slug, score, rank}]} by hand',
    async (slug, vendors) => {
      const body = expectOk(await f.get(`${A}/peptides/${slug}/vendors`));
      expect(Object.keys(body).sort()).toEqual(['peptide', 'vendors']);
      expect(body).toEqual({ peptide: slug, vendors });
      for (const v of body.vendors) expect(Object.keys(v).sort()).toEqual(['rank', 'score', 'slug']);
    },
  );

  it('bpc-157: the unverified (borealis) and unscored (unscored, bare) listers are left out', async () => {
    const body = expectOk(await f.get(`${A}/peptides/bpc-157/vendors`));
    const got = body.vendors.map((v: { slug: string }) => v.slug);
    expect(got).not.toContain('borealis');
    expect(got).not.toContain('unscored');
    expect(got).not.toContain('bare');
  });

  it('tb-500: the tie at 80 is broken by name case-insensitively ("alpha" = "ALPHA" < "Beta"), then slug', async () => {
    const body = expectOk(await f.get(`${A}/peptides/tb-500/vendors`));
    expect(body.vendors.map((v: { slug: string; rank: number }) => `${v.rank}:${v.slug}`)).toEqual([
      '1:alpha2',
      '2:zeta',
      '3:beta',
    ]);
  });

  it.each(['nope', 'BPC-157', 'bpc157', 'x'.repeat(64)])(
    'unknown peptide %s → 404 not_found',
    async (slug) => {
      expectError(await f.get(`${A}/peptides/${slug}/vendors`), 404, 'not_found');
    },
  );

  it('a baseline-only and a live-only listing both count; a new listing joins the ranking after an import', async () => {
    // ipamorelin: nobody lists it yet.
    expect(expectOk(await f.get(`${A}/peptides/ipamorelin/vendors`)).vendors).toEqual([]);
    f.ctx.clock.advance(HOUR_MS);
    const r = await f.ctx.load([
      {
        type: 'price',
        vendorSlug: 'nova',
        peptideSlug: 'ipamorelin',
        vialMg: 5,
        source: 'live',
        totalUsd: 30,
        inStock: false,
        updatedAt: iso(),
      },
      {
        type: 'price',
        vendorSlug: 'halfway',
        peptideSlug: 'ipamorelin',
        vialMg: 5,
        source: 'baseline',
        totalUsd: 35,
        inStock: true,
        updatedAt: iso(),
      },
      ...overrides('nova', { coa: 100 }), // 30 + 17.25 + 10.35 + 10.35 + 10.35 = 78.3 → 78
    ]);
    expect(r.ok).toBe(true);
    expect(expectOk(await f.get(`${A}/peptides/ipamorelin/vendors`))).toEqual({
      peptide: 'ipamorelin',
      vendors: [
        { slug: 'halfway', score: 89, rank: 1 },
        { slug: 'nova', score: 78, rank: 2 },
      ],
    });
    // nova moved up: bpc-157 now ranks it 5th still (78 < 80), pt-141 shows the new score.
    expect(expectOk(await f.get(`${A}/peptides/pt-141/vendors`)).vendors).toEqual([
      { slug: 'nova', score: 78, rank: 1 },
    ]);
  });
});

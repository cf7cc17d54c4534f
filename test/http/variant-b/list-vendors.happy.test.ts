import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectEnvelope, type Fixture, iso, RANKING, setupFixture } from './fixtures.ts';

describe.each(DIALECTS)('GET /api/v1/vendors, happy paths (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('returns every scored vendor, ranked, with the defaults echoed', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors`));
    expect(Object.keys(data).sort()).toEqual(['limit', 'offset', 'total', 'vendors']);
    // Ranking by hand (fixtures.ts): 91, 89, then the 80s by case-insensitive name then slug
    // ("alpha"/alpha2 and "ALPHA"/zeta share a name; "Beta" is pinned to 80), then 72.
    expect(data.vendors).toEqual(RANKING);
    expect(data).toMatchObject({ total: 6, limit: 50, offset: 0 });
  });

  it('excludes unscored vendors (even one with a score override) and includes unverified ones', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors`));
    const slugs = data.vendors.map((v: { slug: string }) => v.slug);
    expect(slugs).not.toContain('unscored');
    expect(slugs).not.toContain('bare');
    expect(slugs).toContain('borealis');
    expect(
      data.vendors.filter((v: { verified: boolean }) => !v.verified).map((v: { slug: string }) => v.slug),
    ).toEqual(['alpha2', 'beta', 'borealis']);
  });

  it('items carry exactly slug, name, score, verified, location, pillars', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors`));
    for (const v of data.vendors) {
      expect(Object.keys(v).sort()).toEqual(['location', 'name', 'pillars', 'score', 'slug', 'verified']);
      expect(Object.keys(v.pillars).sort()).toEqual([
        'coa',
        'experience',
        'purity',
        'sentiment',
        'transparency',
      ]);
    }
  });

  it('computes the composite as the weighted mean rounded half up, and honours a score override', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors`));
    const score = (slug: string) => data.vendors.find((v: { slug: string }) => v.slug === slug).score;
    expect(score('apex')).toBe(91); // 28.5 + 23 + 13.2 + 13.5 + 12.75 = 90.95
    expect(score('halfway')).toBe(89); // 27 + 22.5 + 13.5 + 13.5 + 12 = 88.5 exactly → up
    expect(score('borealis')).toBe(72); // 24 + 17.5 + 9 + 11.25 + 9.75 = 71.5 → up
    expect(score('beta')).toBe(80); // pillars all 50 (composite 50), pinned to 80
  });

  it('pages with limit and offset; total stays the count of all scored vendors', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors?limit=2&offset=2`));
    expect(data.vendors.map((v: { slug: string }) => v.slug)).toEqual(['alpha2', 'zeta']);
    expect(data).toMatchObject({ total: 6, limit: 2, offset: 2 });
    const last = expectEnvelope(await f.get(`${B}/vendors?offset=5`));
    expect(last.vendors.map((v: { slug: string }) => v.slug)).toEqual(['borealis']);
    expect(last).toMatchObject({ total: 6, limit: 50, offset: 5 });
  });

  it.each([
    ['0', 1],
    ['-5', 1],
    ['1', 1],
    ['200', 200],
    ['201', 200],
    ['999999', 200],
  ])('clamps limit=%s to %i and echoes the applied value', async (raw, applied) => {
    const data = expectEnvelope(await f.get(`${B}/vendors?limit=${raw}`));
    expect(data.limit).toBe(applied);
    expect(data.offset).toBe(0);
    expect(data.total).toBe(6);
    expect(data.vendors.map((v: { slug: string }) => v.slug)).toEqual(
      RANKING.slice(0, applied).map((v) => v.slug),
    );
  });

  it.each([6, 7, 1000])('offset %i past the end gives an empty page with the right total', async (offset) => {
    const data = expectEnvelope(await f.get(`${B}/vendors?offset=${offset}`));
    expect(data).toEqual({ vendors: [], total: 6, limit: 50, offset });
  });

  it('data_updated_at is the import time, not the response time, and moves with the next import', async () => {
    f.ctx.clock.advance(3 * HOUR_MS);
    expectEnvelope(await f.get(`${B}/vendors`), iso(0));
    // A re-import an hour later that demotes apex: coa 95 → 60 gives 18 + 23 + 13.2 + 13.5 + 12.75 = 80.45 → 80.
    const r = await f.ctx.load([
      { type: 'override', vendorSlug: 'apex', field: 'coa', value: 60, reason: 'test' },
    ]);
    expect(r.ok).toBe(true);
    f.ctx.clock.advance(HOUR_MS);
    const data = expectEnvelope(await f.get(`${B}/vendors`), iso(3 * HOUR_MS));
    // "Apex Labs" now ties at 80: ALPHA/alpha < apex labs < beta by name.
    expect(data.vendors.map((v: { slug: string; score: number }) => `${v.slug}:${v.score}`)).toEqual([
      'halfway:89',
      'alpha2:80',
      'zeta:80',
      'apex:80',
      'beta:80',
      'borealis:72',
    ]);
  });
});

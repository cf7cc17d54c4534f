import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  A,
  ALL_VENDOR_SLUGS,
  expectList,
  expectOk,
  type Fixture,
  overrides,
  RANKING,
  setupFixture,
  slugs,
} from './fixtures.ts';

const ITEM_KEYS = ['location', 'name', 'pillars', 'purity', 'score', 'slug', 'tier', 'verified'];

describe.each(DIALECTS)('GET /v1/vendors, happy paths (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('returns the verified, scored vendors, ranked, as {data, total, page}', async () => {
    const body = expectList(await f.get(`${A}/vendors`), true);
    // By hand (fixtures.ts): 91, 90, 89, then the 80s by case-insensitive name then slug
    // ("alpha"/alpha2 and "ALPHA"/zeta share a name; "Beta" after "alpha"), then 79, 70, 69.
    expect(body).toEqual({ data: RANKING, total: 9, page: 1 });
  });

  it('excludes the unverified (borealis, scored 72) and the unscored (unscored, bare)', async () => {
    const got = slugs(expectList(await f.get(`${A}/vendors`), true).data);
    expect(got).not.toContain('borealis');
    expect(got).not.toContain('unscored');
    expect(got).not.toContain('bare');
  });

  it('items carry exactly slug, name, score, purity, verified, tier, location, pillars', async () => {
    for (const v of expectList(await f.get(`${A}/vendors`), true).data) {
      expect(Object.keys(v).sort()).toEqual(ITEM_KEYS);
      expect(Object.keys(v.pillars).sort()).toEqual([
        'coa',
        'experience',
        'purity',
        'sentiment',
        'transparency',
      ]);
    }
  });

  it('tier bands at the boundaries: 91/90 platinum, 89/80 gold, 79/70 silver, 69 bronze', async () => {
    const data = expectList(await f.get(`${A}/vendors`), true).data as { score: number; tier: string }[];
    expect(data.map((v) => `${v.score}:${v.tier}`)).toEqual([
      '91:platinum',
      '90:platinum',
      '89:gold',
      '80:gold',
      '80:gold',
      '80:gold',
      '79:silver',
      '70:silver',
      '69:bronze',
    ]);
  });

  it('purity: mean of approved tested batches, one decimal, ".0" dropped, always "<number>%"', async () => {
    const data = expectList(await f.get(`${A}/vendors`), true).data as {
      slug: string;
      purity: string;
    }[];
    const purity = Object.fromEntries(data.map((v) => [v.slug, v.purity]));
    expect(purity.apex).toBe('99.1%'); // (99.1 + 99.3 + 98.7 + 99.3) / 4; pending 90 and rejected 50 ignored
    expect(purity.novara).toBe('99%'); // (6 × 98.5 + 6 × 99.5) / 12 = 99.0 → "99%"
    expect(purity.nova).toBe('97.2%'); // a pending batch's claimed 10 is not counted
    expect(purity.halfway).toBe('98.4%'); // H-OK; its pending and rejected batches are not counted
    expect(purity.alpha2).toBe('99%'); // 99.0, ".0" dropped
    for (const v of data) expect(v.purity, v.slug).toMatch(/^[0-9]+(\.[0-9])?%$/);
  });

  it('paging: page and per_page choose the window; total stays the whole ranking', async () => {
    const p1 = expectList(await f.get(`${A}/vendors?per_page=2`), true);
    expect({ slugs: slugs(p1.data), total: p1.total, page: p1.page }).toEqual({
      slugs: ['apex', 'novara'],
      total: 9,
      page: 1,
    });
    const p2 = expectList(await f.get(`${A}/vendors?page=2&per_page=2`), true);
    expect({ slugs: slugs(p2.data), total: p2.total, page: p2.page }).toEqual({
      slugs: ['halfway', 'alpha2'],
      total: 9,
      page: 2,
    });
    const p3 = expectList(await f.get(`${A}/vendors?page=3&per_page=2`), true);
    expect(slugs(p3.data)).toEqual(['zeta', 'beta']);
    const p5 = expectList(await f.get(`${A}/vendors?page=5&per_page=2`), true);
    expect(p5).toEqual({ data: [RANKING[8]], total: 9, page: 5 });
    const p2of4 = expectList(await f.get(`${A}/vendors?page=2&per_page=4`), true);
    expect(slugs(p2of4.data)).toEqual(['zeta', 'beta', 'orion-two', 'orion-one']);
  });

  it('walking every page with per_page=1 visits the ranking exactly once', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const body = expectList(await f.get(`${A}/vendors?page=${page}&per_page=1`), true);
      expect(body.total).toBe(9);
      expect(body.page).toBe(page);
      seen.push(...slugs(body.data));
    }
    expect(seen).toEqual(slugs(RANKING));
  });

  it.each([
    ['page=6&per_page=2', 6],
    ['page=2', 2],
    ['page=1000&per_page=200', 1000],
  ])('a page past the end (%s) → 200 with empty data and the right total', async (query, page) => {
    expect(expectList(await f.get(`${A}/vendors?${query}`), true)).toEqual({ data: [], total: 9, page });
  });

  it.each([
    ['page=1', 9],
    ['per_page=50', 9],
    ['per_page=200', 9],
    ['per_page=1', 1],
    ['per_page=9', 9],
    ['per_page=8', 8],
  ])('%s → page 1 with %i items', async (query, n) => {
    const body = expectList(await f.get(`${A}/vendors?${query}`), true);
    expect(body.page).toBe(1);
    expect(body.total).toBe(9);
    expect(slugs(body.data)).toEqual(slugs(RANKING).slice(0, n));
  });

  it('consistency: total is the number of vendors whose report says verified, scored, with an approved CoA', async () => {
    let count = 0;
    for (const slug of ALL_VENDOR_SLUGS) {
      const v = expectOk(await f.get(`${A}/vendors/${slug}`));
      if (v.verified && typeof v.score === 'number' && v.coa_count > 0) count++;
    }
    expect(count).toBe(9);
    expect(expectList(await f.get(`${A}/vendors`), true).total).toBe(count);
  });

  it('follows an import: verifying borealis and demoting apex re-rank the list', async () => {
    f.ctx.clock.advance(HOUR_MS);
    // apex coa 95 → 60: 18 + 23 + 13.2 + 13.5 + 12.75 = 80.45 → 80, into the "alpha"/"ALPHA"/"Apex Labs"/"Beta" tie.
    const r = await f.ctx.load([
      { type: 'vendor', slug: 'borealis', name: 'Borealis Research', location: 'Canada', verified: true },
      ...overrides('apex', { coa: 60 }),
    ]);
    expect(r.ok).toBe(true);
    const body = expectList(await f.get(`${A}/vendors`), true);
    expect(body.total).toBe(10);
    expect(
      body.data.map((v: { slug: string; score: number; tier: string }) => `${v.slug}:${v.score}:${v.tier}`),
    ).toEqual([
      'novara:90:platinum',
      'halfway:89:gold',
      'alpha2:80:gold',
      'zeta:80:gold',
      'apex:80:gold',
      'beta:80:gold',
      'orion-two:79:silver',
      'borealis:72:silver',
      'orion-one:70:silver',
      'nova:69:bronze',
    ]);
  });
});

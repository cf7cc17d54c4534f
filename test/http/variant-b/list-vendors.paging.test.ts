import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectEnvelope, type Fixture, setupFixture } from './fixtures.ts';

/**
 * 205 scored vendors, so the default page size and the 200 cap are visible in the items, not only
 * in the echoed values. Vendor i (1..205) has every pillar = 100 - (i % 50), so its composite is
 * exactly that value; ties are broken by name "Gen NNN" (same order as the slug "gen-NNN").
 */
const N = 205;
const pad = (i: number) => String(i).padStart(3, '0');
const scoreOf = (i: number) => 100 - (i % 50);
const records: Record<string, unknown>[] = [];
for (let i = 1; i <= N; i++) {
  const slug = `gen-${pad(i)}`;
  records.push({ type: 'vendor', slug, name: `Gen ${pad(i)}`, location: 'Nowhere' });
  for (const field of ['coa', 'purity', 'sentiment', 'transparency', 'experience']) {
    records.push({ type: 'override', vendorSlug: slug, field, value: scoreOf(i), reason: 'paging' });
  }
}
// Expected order: score desc, then index asc (names and slugs both sort by the padded index).
const ORDER = Array.from({ length: N }, (_, k) => k + 1)
  .sort((a, b) => scoreOf(b) - scoreOf(a) || a - b)
  .map((i) => `gen-${pad(i)}`);

describe.each(DIALECTS)('GET /api/v1/vendors, paging over 205 vendors (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect, records);
  });
  afterAll(async () => f?.ctx.close());

  const slugs = (data: { vendors: { slug: string }[] }) => data.vendors.map((v) => v.slug);

  it('the expected order starts with the score-100 vendors (i = 50, 100, 150, 200), then 99 (i = 1)', () => {
    expect(ORDER.slice(0, 5)).toEqual(['gen-050', 'gen-100', 'gen-150', 'gen-200', 'gen-001']);
  });

  it('defaults to 50 items from offset 0', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors`));
    expect(data.total).toBe(205);
    expect(data.limit).toBe(50);
    expect(data.offset).toBe(0);
    expect(slugs(data)).toEqual(ORDER.slice(0, 50));
  });

  it.each([
    ['200', 200],
    ['201', 200],
    ['999999', 200],
  ])('limit=%s returns %i items', async (raw, n) => {
    const data = expectEnvelope(await f.get(`${B}/vendors?limit=${raw}`));
    expect(data.limit).toBe(n);
    expect(slugs(data)).toEqual(ORDER.slice(0, n));
  });

  it('the page after 200 holds the last 5', async () => {
    const data = expectEnvelope(await f.get(`${B}/vendors?limit=200&offset=200`));
    expect(slugs(data)).toEqual(ORDER.slice(200));
    expect(data).toMatchObject({ total: 205, limit: 200, offset: 200 });
  });

  it('pages are disjoint and cover the ranking', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < N; offset += 60) {
      seen.push(...slugs(expectEnvelope(await f.get(`${B}/vendors?limit=60&offset=${offset}`))));
    }
    expect(seen).toEqual(ORDER);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectError, expectOk, type Fixture, scoredVendor, setupFixture, slugs } from './fixtures.ts';

/*
 * Twelve extra vendors "Fjord Supply 01".."Fjord Supply 12" in Iceland, flat pillars 60 + k, so
 * fjord-k scores 60 + k (61..72). They match "fjord" with equal relevance, so the score orders them:
 * fjord-12, fjord-11, ..., fjord-01.
 */
const FJORDS = Array.from({ length: 12 }, (_, i) => {
  const k = String(i + 1).padStart(2, '0');
  return { slug: `fjord-${k}`, name: `Fjord Supply ${k}`, score: 61 + i };
});
const BY_SCORE = FJORDS.map((v) => v.slug).reverse();

describe.each(DIALECTS)('GET /v1/search, parameters (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    const r = await f.ctx.load(FJORDS.flatMap((v) => scoredVendor(v.slug, v.name, 'Iceland', v.score)));
    if (!r.ok) throw new Error(JSON.stringify(r));
  });
  afterAll(async () => f?.ctx.close());

  const search = async (query: string) => expectOk(await f.get(`${A}/search?${query}`));

  it('limit defaults to 10 per kind: the 10 best-scored of 12 equally relevant vendors', async () => {
    const body = await search('q=fjord');
    expect(slugs(body.vendors)).toEqual(BY_SCORE.slice(0, 10));
    expect(body.vendors[0]).toEqual({
      slug: 'fjord-12',
      name: 'Fjord Supply 12',
      score: 72,
      tier: 'silver',
      verified: true,
    });
  });

  it.each([
    [1, 1],
    [11, 11],
    [12, 12],
    [50, 12],
  ])('limit=%i → %i vendors', async (limit, n) => {
    expect(slugs((await search(`q=fjord&limit=${limit}`)).vendors)).toEqual(BY_SCORE.slice(0, n));
  });

  it('the limit applies to each kind separately', async () => {
    // "healing" matches two peptides, "iceland" twelve vendors; limit 2 keeps two of each.
    const body = await search(`q=${encodeURIComponent('healing iceland')}&limit=2`);
    expect(body.vendors).toHaveLength(2);
    expect(slugs(body.peptides).sort()).toEqual(['bpc-157', 'tb-500']);
  });

  it.each([
    ['limit=0', "Parameter 'limit' must be at least 1."],
    ['limit=51', "Parameter 'limit' must be at most 50."],
    ['limit=abc', "Parameter 'limit' must be an integer."],
    ['limit=1.5', "Parameter 'limit' must be an integer."],
    ['limit=-1', "Parameter 'limit' must be at least 1."],
  ])('q=fjord&%s → 400 invalid_parameter naming limit', async (query, message) => {
    const err = expectError(await f.get(`${A}/search?q=fjord&${query}`), 400, 'invalid_parameter');
    expect(err.message).toContain("'limit'");
    expect(err.message).toBe(message);
  });

  it.each([
    ['q missing', ''],
    ['q missing, limit given', 'limit=5'],
    ['q empty', 'q='],
    ['q a space', 'q=%20'],
    ['q whitespace only', 'q=%20%20%09%20'],
    ['q a newline', 'q=%0A'],
    ['q over 200 characters', `q=${'a'.repeat(201)}`],
    ['q 201 characters of words', `q=${encodeURIComponent('bpc 157 '.repeat(25) + 'x')}`],
    ['q 300 spaces', `q=${'%20'.repeat(300)}`],
  ])('%s → 400 invalid_parameter naming q', async (_what, query) => {
    const err = expectError(await f.get(`${A}/search?${query}`), 400, 'invalid_parameter');
    expect(err.message).toContain("'q'");
  });

  it('exactly 200 characters → 200', async () => {
    expect((await f.get(`${A}/search?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    expect((await f.get(`${A}/search?q=${encodeURIComponent(`${'fjord '.repeat(33)}ab`)}`)).statusCode).toBe(
      200,
    ); // 6 × 33 + 2
  });

  it('the length limit counts characters, not UTF-16 code units: 200 emoji → 200, 201 → 400', async () => {
    const res = await f.get(`${A}/search?q=${encodeURIComponent('😀'.repeat(200))}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ vendors: [], peptides: [] });
    const over = expectError(
      await f.get(`${A}/search?q=${encodeURIComponent('😀'.repeat(201))}`),
      400,
      'invalid_parameter',
    );
    expect(over.message).toContain("'q'");
  });

  it('a whitespace query is refused even after the same words were answered (no cache shortcut)', async () => {
    expect((await f.get(`${A}/search?q=fjord`)).statusCode).toBe(200);
    expectError(await f.get(`${A}/search?q=%20`), 400, 'invalid_parameter');
    expectError(await f.get(`${A}/search?q=%20`), 400, 'invalid_parameter');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectOk, type Fixture, setupFixture, slugs } from './fixtures.ts';

type Hit = { slug: string };

describe.each(DIALECTS)('GET /v1/search, what matches (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const search = async (q: string) => {
    const body = expectOk(await f.get(`${A}/search?q=${encodeURIComponent(q)}`));
    expect(Object.keys(body).sort()).toEqual(['peptides', 'vendors']);
    return body as {
      vendors: (Hit & Record<string, unknown>)[];
      peptides: (Hit & Record<string, unknown>)[];
    };
  };

  it('result items: vendors {slug, name, score, tier, verified}, peptides {slug, name, category, vendor_count}', async () => {
    expect(await search('borealis')).toEqual({
      vendors: [{ slug: 'borealis', name: 'Borealis Research', score: 72, tier: 'silver', verified: false }],
      peptides: [],
    });
    expect(await search('metabolic')).toEqual({
      vendors: [],
      // Equal relevance (both match only by category): ties go to the peptide with more ranked vendors.
      peptides: [
        { slug: 'tirzepatide', name: 'Tirzepatide', category: 'metabolic', vendor_count: 3 },
        { slug: 'semaglutide', name: 'Semaglutide', category: 'metabolic', vendor_count: 0 },
      ],
    });
  });

  it.each([
    'bpc157',
    'BPC 157',
    'bpc-157',
    'Bpc–157',
    'BPC-157',
    'bpc 157',
    'BPC_157',
    'bpc.157',
    '  bpc157  ',
  ])('%s finds BPC-157 first', async (q) => {
    const body = await search(q);
    expect(body.peptides[0]).toEqual({
      slug: 'bpc-157',
      name: 'BPC-157',
      category: 'healing',
      vendor_count: 5,
    });
  });

  it.each(['sémaglutide', 'SEMAGLUTIDE', 'Sémâglütídé', 'semaglutide'])(
    'accents and case are ignored: %s finds Semaglutide',
    async (q) => {
      expect(slugs((await search(q)).peptides)[0]).toBe('semaglutide');
    },
  );

  it.each([
    ['semeglutide', 'semaglutide'], // one substitution
    ['semaglutid', 'semaglutide'], // one deletion
    ['semaglutidde', 'semaglutide'], // one insertion
    ['tirzepatyde', 'tirzepatide'],
    ['ipamorelim', 'ipamorelin'],
  ])('one typo in a word of 5+ letters is tolerated: %s → %s', async (q, slug) => {
    expect(slugs((await search(q)).peptides)[0]).toBe(slug);
  });

  it('one typo in a 5-letter vendor word: "orian" finds both Orion vendors', async () => {
    expect(slugs((await search('orian')).vendors)).toEqual(['orion-two', 'orion-one']);
  });

  it.each([
    ['semeglutida', 'two edits'],
    ['beto', 'a 4-letter word ("beta") with one typo'],
    ['apix', 'a 4-letter word ("apex") with one typo'],
    ['lebs', 'a 4-letter word ("labs") with one typo'],
    ['nuva', 'a 4-letter word ("nova") with one typo'],
  ])('%s (%s) matches nothing', async (q) => {
    expect(await search(q)).toEqual({ vendors: [], peptides: [] });
  });

  it('the short words those typos missed do match when spelled right', async () => {
    expect(slugs((await search('beta')).vendors)).toEqual(['beta']);
    expect(slugs((await search('beta')).peptides)).toEqual(['tb-500']); // alias "Thymosin Beta-4"
    expect(slugs((await search('apex')).vendors)).toEqual(['apex']);
  });

  it.each([
    ['tirz', 'tirzepatide'],
    ['Tirzep', 'tirzepatide'],
    ['sema', 'semaglutide'],
    ['ipa', 'ipamorelin'],
    ['brem', 'pt-141'],
  ])('prefix while typing: %s → %s first', async (q, slug) => {
    expect(slugs((await search(q)).peptides)[0]).toBe(slug);
  });

  it.each([
    ['body protection compound', 'bpc-157'],
    ['Body Protection', 'bpc-157'],
    ['protection', 'bpc-157'],
    ['PL 14736', 'bpc-157'],
    ['pl14736', 'bpc-157'],
    ['thymosin beta-4', 'tb-500'],
    ['thymosin beta 4', 'tb-500'],
  ])('aliases are searchable: %s → %s', async (q, slug) => {
    expect(slugs((await search(q)).peptides)[0]).toBe(slug);
  });

  it('relevance first: "nova" ranks Nova Labs (exact, 69) above Novara Research (prefix, 90)', async () => {
    expect(await search('nova')).toEqual({
      vendors: [
        { slug: 'nova', name: 'Nova Labs', score: 69, tier: 'bronze', verified: true },
        { slug: 'novara', name: 'Novara Research', score: 90, tier: 'platinum', verified: true },
      ],
      peptides: [],
    });
  });

  it.each([
    // "Orion One" sorts before "Orion Two" by name; the score (79 > 70) decides.
    ['orion', ['orion-two', 'orion-one']],
    ['norway', ['orion-two', 'orion-one']],
    // Both in Canada: novara 90 before borealis 72.
    ['canada', ['novara', 'borealis']],
  ])('equal relevance (%s): ties go to the higher score', async (q, expected) => {
    expect(slugs((await search(q)).vendors)).toEqual(expected);
  });

  it.each(['uk', 'alpha'])(
    'equal relevance and score (%s): the ranking tie rule applies — name case-insensitively, then slug',
    async (q) => {
      // alpha2 "alpha" and zeta "ALPHA" (both UK, both 80) have the same name case-insensitively, so the
      // slug decides: alpha2 first, as in /v1/vendors and every peptide ranking.
      expect(slugs((await search(q)).vendors)).toEqual(['alpha2', 'zeta']);
    },
  );

  it('only scored vendors are searchable (unverified scored ones are)', async () => {
    expect((await search('unscored')).vendors).toEqual([]);
    expect((await search('Unscored Inc')).vendors).toEqual([]);
    expect((await search('bare co')).vendors).toEqual([]);
    expect((await search('France')).vendors).toEqual([]); // unscored's country
    // "research" also matches Novara Research; the full name puts Borealis first.
    expect(slugs((await search('borealis research')).vendors)).toEqual(['borealis', 'novara']);
  });

  it('vendor_count in search equals the peptide ranking length', async () => {
    for (const q of ['bpc', 'tb-500', 'tirz', 'semaglutide', 'ghk', 'ipamorelin', 'bremelanotide']) {
      for (const p of (await search(q)).peptides) {
        const ranking = expectOk(await f.get(`${A}/peptides/${p.slug}/vendors`));
        expect(p.vendor_count, p.slug).toBe(ranking.vendors.length);
      }
    }
  });

  it('a query of punctuation only is valid and matches nothing', async () => {
    expect(await search('---')).toEqual({ vendors: [], peptides: [] });
  });

  it('a 200-character query is accepted', async () => {
    const q = 'bpc 157 '.repeat(25); // 8 × 25 = 200
    expect(q).toHaveLength(200);
    expect(slugs((await search(q)).peptides)[0]).toBe('bpc-157');
  });
});

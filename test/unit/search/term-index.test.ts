import { describe, expect, it } from 'vitest';
import { TermIndex } from '../../../src/adapters/search/term-index.ts';
import { queryKey, searchTerms, words } from '../../../src/core/search/normalize.ts';

const doc = (...texts: string[]) => ({ fields: texts.map((text, i) => ({ text, boost: i === 0 ? 3 : 1 })) });
const NAMES = [
  'BPC-157',
  'TB-500',
  'Semaglutide',
  'Tirzepatide',
  'Sémaglutide Max',
  'GHK-Cu',
  'Labs Inc',
  'Oxytocin',
];
const index = new TermIndex(NAMES.map((n) => doc(n)));
const top = (q: string, limit = 10) => index.search(q, limit).map((h) => NAMES[h.doc]);

describe('search normalisation', () => {
  it('folds case, accents and punctuation, and runs words together', () => {
    expect(words('Sémaglutide–Max (v2)')).toEqual(['semaglutide', 'max', 'v2']);
    expect(searchTerms('Thymosin Beta-4')).toEqual([
      'thymosin',
      'beta',
      '4',
      'thymosinbeta4',
      'thymosinbeta',
      'beta4',
    ]);
    expect(queryKey('  BPC   157 ')).toBe(queryKey('bpc-157'));
  });
});

describe('TermIndex', () => {
  it.each(['bpc157', 'BPC 157', 'bpc-157', 'Bpc–157', 'BPC_157'])('finds BPC-157 for %j', (q) => {
    expect(top(q)[0]).toBe('BPC-157');
  });

  it('is accent-insensitive both ways', () => {
    expect(top('semaglutide')).toEqual(expect.arrayContaining(['Semaglutide', 'Sémaglutide Max']));
    expect(top('sémaglutide')[0]).toBe('Semaglutide');
  });

  it('matches prefixes while typing, weaker than the whole word', () => {
    expect(top('tirz')).toEqual(['Tirzepatide']);
    const [whole] = index.search('oxytocin', 1);
    const [prefix] = index.search('oxytoc', 1);
    expect(prefix!.relevance).toBeLessThan(whole!.relevance);
  });

  it('forgives one typo in words of five letters or more, and not two', () => {
    expect(top('semaglutdie')[0]).toBe('Semaglutide'); // two neighbours swapped
    expect(top('semeglutide')[0]).toBe('Semaglutide'); // substitution
    expect(top('semaglitdie')).toEqual([]); // a substitution and a swap: two typos
    expect(top('semaglutid')[0]).toBe('Semaglutide'); // deletion (also a prefix)
    expect(top('semaglutidee')[0]).toBe('Semaglutide'); // insertion
    expect(top('oxytocim')).toEqual(['Oxytocin']);
    expect(top('sxmeglutide')).toEqual([]);
  });

  it('does not forgive typos in short words or in numbers', () => {
    expect(top('lbas')).toEqual([]); // 4 letters: no typo tolerance
    expect(top('bpc 158')).toEqual(['BPC-157']); // 'bpc' still matches; '158' finds nothing else
    expect(top('158')).toEqual([]);
  });

  it('returns the limit plus every hit tied with the last', () => {
    const tied = new TermIndex(['Apex One', 'Apex Two', 'Apex Three', 'Other'].map((n) => doc(n)));
    const hits = tied.search('apex', 1);
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.relevance)).size).toBe(1);
  });

  it('leaves no state behind between queries', () => {
    const a = index.search('semaglutide', 10);
    index.search('labs', 10);
    expect(index.search('semaglutide', 10)).toEqual(a);
  });

  it('answers nothing for a query with no letters or digits', () => {
    expect(index.search('---', 10)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { TermIndex } from '../../../src/adapters/search/term-index.ts';

const index = new TermIndex(
  ['Alpha Labs', 'Alpha Peptides', 'Alphabet Research', 'Beta Labs'].map((text) => ({
    fields: [{ text, boost: 1 }],
  })),
);

/** The index does not trust its caller to have validated `limit` (issue [5], hardening). */
describe('TermIndex.search with odd limits', () => {
  it.each([0, -1, -Infinity, Number.NaN, 0.5])('limit %s finds nothing, without throwing', (limit) => {
    expect(index.search('alpha', limit)).toEqual([]);
  });

  it('Infinity keeps every hit; a fractional limit is rounded down', () => {
    expect(index.search('alpha', Infinity)).toHaveLength(3);
    expect(index.search('alpha', 2.9)).toEqual(index.search('alpha', 2));
  });

  it('a good limit still cuts with ties', () => {
    const all = index.search('labs', 10);
    expect(all).toHaveLength(2);
    // Both "labs" documents tie, so a limit of 1 keeps both.
    expect(index.search('labs', 1)).toHaveLength(2);
  });
});

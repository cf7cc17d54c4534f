import { describe, expect, it } from 'vitest';
import { compareRanking, rank, type ScoredVendor } from '../../../src/core/catalog/read-model.ts';

const vendor = (i: number, score: number, name: string, slug: string): ScoredVendor =>
  ({ id: i, score, name, slug }) as ScoredVendor;

describe('rank', () => {
  it('orders exactly as compareRanking: score desc, then name case-insensitively, then slug', () => {
    // Few scores and names, so ties on score and on name are common.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const names = ['alpha', 'Alpha', 'ALPHA labs', 'beta', 'Beta', 'Ärzte', 'zeta'];
    const vendors = Array.from({ length: 2000 }, (_, i) =>
      vendor(i, 60 + (next() % 5), names[next() % names.length]!, `v-${next() % 500}`),
    );
    const expected = [...vendors].sort(compareRanking).map((v) => v.id);
    expect(rank(vendors).map((v) => v.id)).toEqual(expected);
  });
});

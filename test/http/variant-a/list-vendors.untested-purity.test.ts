import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  A,
  expectList,
  expectOk,
  type Fixture,
  iso,
  LAB,
  overrides,
  setupFixture,
  slugs,
} from './fixtures.ts';

/*
 * Decision 0016: Variant A's `purity` is always "<number>%". A verified, scored vendor without a
 * tested purity on record (all five pillars set by an operator, no approved batch) has none to
 * show, so it is not in A's ranking — nor in any per-peptide ranking or vendor_count — until its
 * first approved CoA. Everything else about it stays visible: its report, search, Variant B.
 *
 * quill: verified, pillars overridden to 95 (composite 95, so it would rank first), lists bpc-157,
 * has a pending and a rejected batch only. The fixture's A ranking is 9 vendors, bpc-157 ranks 5.
 */
const QUILL = [
  { type: 'vendor', slug: 'quill', name: 'Quill Research', location: 'Malta', verified: true },
  ...overrides('quill', { coa: 95, purity: 95, sentiment: 95, transparency: 95, experience: 95 }),
  {
    type: 'price',
    vendorSlug: 'quill',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'live',
    totalUsd: 40,
    inStock: true,
    updatedAt: iso(-HOUR_MS),
  },
  {
    type: 'batch',
    vendorSlug: 'quill',
    batchId: 'Q-PEND',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: iso(-HOUR_MS),
  },
  {
    type: 'batch',
    vendorSlug: 'quill',
    batchId: 'Q-REJ',
    peptideSlug: 'bpc-157',
    status: 'rejected',
    purity: 99,
  },
];

const approvedQ1 = (status: 'approved' | 'rejected') => ({
  type: 'batch',
  vendorSlug: 'quill',
  batchId: 'Q-1',
  peptideSlug: 'bpc-157',
  status,
  purity: 98.25,
  lab: LAB.slug,
  testMethod: 'HPLC',
  testedAt: iso(-2 * HOUR_MS),
});

describe.each(DIALECTS)('Variant A: a verified, scored vendor without tested purity (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    const r = await f.ctx.load(QUILL);
    if (!r.ok) throw new Error(JSON.stringify(r));
  });
  afterAll(async () => f?.ctx.close());

  const bpcCount = async () =>
    (expectList(await f.get(`${A}/peptides`), false).data as { slug: string; vendor_count: number }[]).find(
      (p) => p.slug === 'bpc-157',
    )?.vendor_count;

  it('is not in the list, its total, any peptide ranking or vendor_count: all four agree', async () => {
    const list = expectList(await f.get(`${A}/vendors?per_page=200`), true);
    expect(slugs(list.data)).not.toContain('quill');
    expect(list.total).toBe(9);
    for (const v of list.data) expect(v.purity, v.slug).toMatch(/^[0-9]+(\.[0-9])?%$/);
    const ranking = expectOk(await f.get(`${A}/peptides/bpc-157/vendors`)).vendors;
    expect(slugs(ranking)).toEqual(['apex', 'novara', 'halfway', 'alpha2', 'nova']);
    expect(await bpcCount()).toBe(5);
    const search = expectOk(await f.get(`${A}/search?q=bpc`));
    expect(search.peptides.find((p: { slug: string }) => p.slug === 'bpc-157').vendor_count).toBe(5);
  });

  it('its report, search and Variant B still show it (it is verified and scored)', async () => {
    expect(expectOk(await f.get(`${A}/vendors/quill`))).toMatchObject({
      slug: 'quill',
      score: 95,
      tier: 'platinum',
      verified: true,
      coa_count: 0,
    });
    expect(expectOk(await f.get(`${A}/search?q=quill`)).vendors).toEqual([
      { slug: 'quill', name: 'Quill Research', score: 95, tier: 'platinum', verified: true },
    ]);
    const b = await f.ctx.app.inject({ url: '/api/v1/vendors?limit=1', headers: bearer(f.key) });
    expect(b.json().data.vendors[0]).toMatchObject({ slug: 'quill', score: 95 });
  });

  it('joins every A ranking with its first approved CoA, and leaves them when it is rejected', async () => {
    f.ctx.clock.advance(HOUR_MS);
    expect((await f.ctx.load([approvedQ1('approved')])).ok).toBe(true);
    const list = expectList(await f.get(`${A}/vendors`), true);
    expect(list.total).toBe(10);
    // 98.25 → one decimal, half up → "98.3%"
    expect(list.data[0]).toMatchObject({ slug: 'quill', score: 95, purity: '98.3%', tier: 'platinum' });
    expect(expectOk(await f.get(`${A}/peptides/bpc-157/vendors`)).vendors[0]).toEqual({
      slug: 'quill',
      score: 95,
      rank: 1,
    });
    expect(await bpcCount()).toBe(6);

    f.ctx.clock.advance(HOUR_MS);
    expect((await f.ctx.load([approvedQ1('rejected')])).ok).toBe(true);
    const after = expectList(await f.get(`${A}/vendors`), true);
    expect(after.total).toBe(9);
    expect(slugs(after.data)).not.toContain('quill');
    expect(await bpcCount()).toBe(5);
  });
});

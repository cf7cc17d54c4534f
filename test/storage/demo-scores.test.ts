import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tierOf } from '../../src/core/scoring/composite.ts';
import { isScored } from '../../src/core/vendors/model.ts';
import { demoDataset } from '../../src/seed/demo-dataset.ts';
import { SCORE_OVERRIDE, TIED_VENDORS } from '../../src/seed/demo-vendors.ts';
import { type FreshStore, openFreshStore, T0 } from './support.ts';

/** The demo shows the method at work: scores computed from its evidence spread over the tiers. */
describe('demo dataset scored by method v1 (sqlite)', () => {
  let fresh: FreshStore;
  beforeAll(async () => {
    fresh = await openFreshStore('sqlite');
    await fresh.store.imports.apply(demoDataset(T0), {
      nowIso: new Date(T0).toISOString(),
      reason: 'demo seed',
    });
  });
  afterAll(async () => fresh?.close());

  it('scores most vendors from evidence, over at least three tiers, and leaves a few pending', async () => {
    const vendors = await fresh.store.catalog.listVendors();
    const scored = vendors.filter(isScored);
    expect(scored.length).toBeGreaterThanOrEqual(50);
    const unscored = vendors.filter((v) => !isScored(v));
    expect(unscored.length).toBeGreaterThanOrEqual(1);
    for (const v of unscored) expect(v.pending).toBe(true);
    const tiers = new Set(scored.map((v) => tierOf(v.score)));
    expect(tiers.size).toBeGreaterThanOrEqual(3);
    const scores = scored.map((v) => v.score);
    expect(Math.max(...scores) - Math.min(...scores)).toBeGreaterThanOrEqual(25);
  });

  it('keeps the tie and the pinned composite', async () => {
    const vendors = await fresh.store.catalog.listVendors();
    const [a, b] = TIED_VENDORS.map((s) => vendors.find((v) => v.slug === s)!);
    expect(a!.score).not.toBeNull();
    expect(a!.score).toBe(b!.score);
    expect(vendors.find((v) => v.slug === SCORE_OVERRIDE.vendorSlug)!.score).toBe(SCORE_OVERRIDE.value);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectList, expectOk, type Fixture, overrides, setupFixture } from './fixtures.ts';

/** Re-imports with changed overrides append to score_history (oldest first). Runs in order. */
describe.each(DIALECTS)('GET /v1/vendors/{slug}, score history (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const report = async () => expectOk(await f.get(`${A}/vendors/apex`));
  const load = async (records: Record<string, unknown>[]) => {
    f.ctx.clock.advance(HOUR_MS);
    const r = await f.ctx.load(records);
    expect(r.ok, JSON.stringify(r)).toBe(true);
  };

  it('starts with the first composite', async () => {
    expect((await report()).score_history).toEqual([91]);
  });

  it('coa 95 → 60 appends 80 (18 + 23 + 13.2 + 13.5 + 12.75 = 80.45), tier drops to gold', async () => {
    await load(overrides('apex', { coa: 60 }));
    expect(await report()).toMatchObject({ score: 80, tier: 'gold', score_history: [91, 80] });
  });

  it('coa → 100 appends 92 (30 + 23 + 13.2 + 13.5 + 12.75 = 92.45)', async () => {
    await load(overrides('apex', { coa: 100 }));
    expect(await report()).toMatchObject({ score: 92, tier: 'platinum', score_history: [91, 80, 92] });
  });

  it('re-importing the same override appends nothing', async () => {
    await load(overrides('apex', { coa: 100 }));
    expect((await report()).score_history).toEqual([91, 80, 92]);
  });

  it('a score override pins the composite (50, bronze); clearing it restores 92', async () => {
    await load(overrides('apex', { score: 50 }));
    expect(await report()).toMatchObject({ score: 50, tier: 'bronze', score_history: [91, 80, 92, 50] });
    await load([{ type: 'override', vendorSlug: 'apex', field: 'score', value: null, reason: 'clear' }]);
    const body = await report();
    expect(body).toMatchObject({ score: 92, tier: 'platinum', score_history: [91, 80, 92, 50, 92] });
    // The list agrees with the report's latest score.
    const list = expectList(await f.get(`${A}/vendors?per_page=1`), true);
    expect(list.data[0]).toMatchObject({ slug: 'apex', score: 92, tier: 'platinum' });
  });

  it('a sentiment override changes the sentiment field (and the history: 88 → 40 is −7.2 → 85.25 → 85)', async () => {
    await load(overrides('apex', { sentiment: 40 }));
    // 30 + 23 + 6 + 13.5 + 12.75 = 85.25 → 85
    expect(await report()).toMatchObject({
      sentiment: 40,
      score: 85,
      tier: 'gold',
      score_history: [91, 80, 92, 50, 92, 85],
    });
  });
});

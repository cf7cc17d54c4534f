import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectEnvelope, type Fixture, iso, LOADED_AT, setupFixture, T0 } from './fixtures.ts';

/** OLD-150 was tested at exactly T0 - 150 days. The clock only moves forward in this file. */
describe.each(DIALECTS)('GET /api/v1/batches/{batchId}, the 150-day boundary (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const at = async (ms: number) => {
    f.ctx.clock.set(ms);
    // data_updated_at stays the import time however the clock moves.
    return expectEnvelope(await f.get(`${B}/batches/OLD-150`), LOADED_AT);
  };

  it('tested exactly 150 days ago → verified, ageDays 150', async () => {
    expect(await at(T0)).toMatchObject({ state: 'verified', ageDays: 150, testedAt: iso(-150 * DAY_MS) });
  });

  it('150 days and 23 hours → still verified, ageDays 150', async () => {
    expect(await at(T0 + 23 * HOUR_MS)).toMatchObject({ state: 'verified', ageDays: 150 });
  });

  it('1 ms before 151 days → still verified', async () => {
    expect(await at(T0 + DAY_MS - 1)).toMatchObject({ state: 'verified', ageDays: 150 });
  });

  it('151 days → stale, ageDays 151, same fields', async () => {
    const data = await at(T0 + DAY_MS);
    expect(data).toMatchObject({ state: 'stale', ageDays: 151, batchId: 'OLD-150', purity: 99.1 });
  });

  it('a younger batch ages by whole days', async () => {
    const data = expectEnvelope(await f.get(`${B}/batches/BPC-001`), LOADED_AT);
    expect(data).toMatchObject({ state: 'verified', ageDays: 11 });
  });
});

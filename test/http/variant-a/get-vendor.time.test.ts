import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectOk, type Fixture, setupFixture, T0 } from './fixtures.ts';

/**
 * recent_coas states against the ManualClock: stale = tested MORE than 150 whole days ago.
 * A-150 was tested at exactly T0 − 150 d, A-151 at T0 − 151 d, A-NEW at T0 − 1 d. The clock only
 * moves forward in this file, and the report is requested at each step (so a cached body must
 * not outlive the moment a state flips).
 */
describe.each(DIALECTS)('GET /v1/vendors/{slug}, the 150-day boundary (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const statesAt = async (ms: number) => {
    f.ctx.clock.set(ms);
    const body = expectOk(await f.get(`${A}/vendors/apex`));
    return Object.fromEntries(
      (body.recent_coas as { batch_id: string; state: string }[]).map((c) => [c.batch_id, c.state]),
    );
  };

  it('at T0: 150 days → verified, 151 days → stale, pending → pending', async () => {
    expect(await statesAt(T0)).toEqual({
      'A-NEW': 'verified',
      'A-PEND': 'pending',
      'A-TB': 'verified',
      'A-150': 'verified',
      'A-151': 'stale',
    });
  });

  it('150 days and 23 hours → still verified', async () => {
    expect((await statesAt(T0 + 23 * HOUR_MS))['A-150']).toBe('verified');
  });

  it('1 ms before 151 days → still verified', async () => {
    expect((await statesAt(T0 + DAY_MS - 1))['A-150']).toBe('verified');
  });

  it('exactly 151 days → stale (the cached report from a moment ago is not served)', async () => {
    expect(await statesAt(T0 + DAY_MS)).toMatchObject({ 'A-150': 'stale', 'A-NEW': 'verified' });
  });

  it('A-TB (tested T0 − 3 d) flips at T0 + 148 d, A-NEW (T0 − 1 d) at T0 + 150 d; pending never goes stale', async () => {
    expect((await statesAt(T0 + 148 * DAY_MS - 1))['A-TB']).toBe('verified');
    expect(await statesAt(T0 + 148 * DAY_MS)).toMatchObject({ 'A-TB': 'stale', 'A-NEW': 'verified' });
    expect((await statesAt(T0 + 150 * DAY_MS - 1))['A-NEW']).toBe('verified');
    expect(await statesAt(T0 + 150 * DAY_MS)).toEqual({
      'A-NEW': 'stale',
      'A-PEND': 'pending',
      'A-TB': 'stale',
      'A-150': 'stale',
      'A-151': 'stale',
    });
  });
});

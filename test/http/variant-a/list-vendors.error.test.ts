import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectError, expectList, type Fixture, setupFixture } from './fixtures.ts';

describe.each(DIALECTS)('GET /v1/vendors, bad parameters (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=-3', 'per_page'],
    ['per_page=201', 'per_page'],
    ['per_page=abc', 'per_page'],
    ['per_page=2.5', 'per_page'],
    ['page=2&per_page=201', 'per_page'],
    ['page=0&per_page=10', 'page'],
  ])('%s → 400 invalid_parameter naming %s', async (query, param) => {
    const err = expectError(await f.get(`${A}/vendors?${query}`), 400, 'invalid_parameter');
    expect(err.message).toContain(`'${param}'`);
  });

  it.each([
    ['page=0', "Parameter 'page' must be at least 1."],
    ['page=abc', "Parameter 'page' must be an integer."],
    ['per_page=201', "Parameter 'per_page' must be at most 200."],
    ['per_page=0', "Parameter 'per_page' must be at least 1."],
  ])('%s → the message says what is wrong', async (query, message) => {
    expect(expectError(await f.get(`${A}/vendors?${query}`), 400, 'invalid_parameter').message).toBe(message);
  });

  it('a rejected request is not cached as a success, and a good one after it is not an error', async () => {
    expectError(await f.get(`${A}/vendors?per_page=abc`), 400, 'invalid_parameter');
    const ok = expectList(await f.get(`${A}/vendors?per_page=3`), true);
    expect(ok.data).toHaveLength(3);
    expectError(await f.get(`${A}/vendors?per_page=201`), 400, 'invalid_parameter');
  });
});

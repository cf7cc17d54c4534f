import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectError, type Fixture, setupFixture } from './fixtures.ts';

describe.each(DIALECTS)('GET /api/v1/vendors, bad parameters (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it.each([
    ['limit=abc', 'limit', "Parameter 'limit' must be an integer."],
    ['limit=1.5', 'limit', "Parameter 'limit' must be an integer."],
    ['limit=', 'limit', "Parameter 'limit' must be an integer."],
    ['offset=abc', 'offset', "Parameter 'offset' must be an integer."],
    ['offset=2.5', 'offset', "Parameter 'offset' must be an integer."],
    ['offset=-1', 'offset', "Parameter 'offset' must be at least 0."],
    ['limit=10&offset=-1', 'offset', "Parameter 'offset' must be at least 0."],
  ])('%s → 400 invalid_parameter naming %s', async (query, param, message) => {
    const err = expectError(await f.get(`${B}/vendors?${query}`), 400, 'invalid_parameter');
    expect(err.message).toContain(`'${param}'`);
    expect(err.message).toBe(message);
  });

  it('a rejected request is not cached as a success for the same path', async () => {
    expectError(await f.get(`${B}/vendors?limit=abc`), 400, 'invalid_parameter');
    const ok = await f.get(`${B}/vendors?limit=3`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.limit).toBe(3);
  });
});

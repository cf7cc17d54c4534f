import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectError, type Fixture, setupFixture } from './fixtures.ts';

describe.each(DIALECTS)('GET /api/v1/vendors/{slug}, errors (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('an unknown slug → 404 not_found naming the slug', async () => {
    const err = expectError(await f.get(`${B}/vendors/no-such-vendor`), 404, 'not_found');
    expect(err.message).toBe("Vendor 'no-such-vendor' does not exist.");
  });

  it('a peptide slug is not a vendor', async () => {
    expectError(await f.get(`${B}/vendors/bpc-157`), 404, 'not_found');
  });

  it('a slug over 200 characters → 400 invalid_parameter naming slug', async () => {
    const err = expectError(await f.get(`${B}/vendors/${'a'.repeat(201)}`), 400, 'invalid_parameter');
    expect(err.message).toContain("'slug'");
  });

  it('a slug of exactly 200 characters is just unknown', async () => {
    expectError(await f.get(`${B}/vendors/${'a'.repeat(200)}`), 404, 'not_found');
  });
});

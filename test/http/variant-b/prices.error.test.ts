import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectError, type Fixture, setupFixture } from './fixtures.ts';

describe.each(DIALECTS)('GET /api/v1/peptides/{slug}/prices, errors (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('an unknown peptide → 404 not_found naming the slug', async () => {
    const err = expectError(await f.get(`${B}/peptides/no-such-peptide/prices`), 404, 'not_found');
    expect(err.message).toBe("Peptide 'no-such-peptide' does not exist.");
  });

  it('a vendor slug is not a peptide', async () => {
    expectError(await f.get(`${B}/peptides/apex/prices`), 404, 'not_found');
  });

  it('a slug over 200 characters → 400 invalid_parameter naming slug', async () => {
    const err = expectError(await f.get(`${B}/peptides/${'p'.repeat(201)}/prices`), 400, 'invalid_parameter');
    expect(err.message).toContain("'slug'");
  });
});

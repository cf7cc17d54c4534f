import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { A, expectError, expectOk, type Fixture, setupFixture } from './fixtures.ts';

describe.each(DIALECTS)('GET /v1/vendors/{slug}, errors (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it.each([
    'nope',
    'APEX', // slugs are lower-case: not apex
    'apex-',
    'ap%20ex',
    '%C3%A4pex',
    'x'.repeat(64),
  ])('unknown slug %s → 404 not_found', async (slug) => {
    const err = expectError(await f.get(`${A}/vendors/${slug}`), 404, 'not_found');
    expect(err.message.length).toBeGreaterThan(0);
  });

  it('a slug with U+0000 is a 400 naming the parameter, not a lookup (no store can hold it)', async () => {
    const err = expectError(await f.get(`${A}/vendors/apex%00`), 400, 'invalid_parameter');
    expect(err.message).toContain("'slug'");
  });

  it('the 404 names the vendor that does not exist', async () => {
    expect(expectError(await f.get(`${A}/vendors/nope`), 404, 'not_found').message).toContain("'nope'");
  });

  it('a 404 is not cached: the vendor appears once imported', async () => {
    expectError(await f.get(`${A}/vendors/newcomer`), 404, 'not_found');
    const r = await f.ctx.load([{ type: 'vendor', slug: 'newcomer', name: 'Newcomer', location: 'Italy' }]);
    expect(r.ok).toBe(true);
    const body = expectOk(await f.get(`${A}/vendors/newcomer`));
    expect(body).toMatchObject({ slug: 'newcomer', verified: false });
    // Unscored: score and tier are absent, never null (decision 0016).
    expect(Object.keys(body)).not.toContain('score');
    expect(Object.keys(body)).not.toContain('tier');
  });
});

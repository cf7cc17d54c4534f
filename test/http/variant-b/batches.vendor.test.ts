import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_ID_LENGTH } from '../../../src/core/batches/model.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, expectEnvelope, expectError, type Fixture, setupFixture } from './fixtures.ts';

/**
 * On a verification endpoint a typo in `?vendor=` must not make a real batch look counterfeit: an
 * unknown vendor is 404 naming it, never 200 `missing`. And the batch number has one length limit,
 * the one the OpenAPI document states.
 */
describe.each(DIALECTS)('GET /api/v1/batches/{batchId}?vendor= (%s)', (dialect) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await setupFixture(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('a real batch with an unknown vendor slug → 404 not_found naming the vendor', async () => {
    expect(expectEnvelope(await f.get(`${B}/batches/SHARED-1?vendor=apex`)).state).toBe('verified');
    const err = expectError(await f.get(`${B}/batches/SHARED-1?vendor=no-such`), 404, 'not_found');
    expect(err.message).toBe("Vendor 'no-such' does not exist.");
    // Asked again (a cached path must not turn it into an answer).
    expectError(await f.get(`${B}/batches/SHARED-1?vendor=no-such`), 404, 'not_found');
  });

  it('a vendor that cannot be a slug → 404 naming it too', async () => {
    const err = expectError(await f.get(`${B}/batches/SHARED-1?vendor=Apex_Labs`), 404, 'not_found');
    expect(err.message).toContain("'Apex_Labs'");
  });

  it('a known vendor without the batch is still 200 missing', async () => {
    expect(expectEnvelope(await f.get(`${B}/batches/NOPE-1?vendor=apex`))).toEqual({
      state: 'missing',
      batchId: 'NOPE-1',
    });
  });

  it('the OpenAPI document states the one batch-number limit, in the schema and the description', async () => {
    const doc = (await f.ctx.app.inject({ url: `${B}/openapi.json` })).json();
    const op = doc.paths['/batches/{batchId}'].get;
    const param = op.parameters.find((p: { name: string }) => p.name === 'batchId');
    expect(param.schema.maxLength).toBe(MAX_BATCH_ID_LENGTH);
    expect(param.description ?? param.schema.description).toContain(`1..${MAX_BATCH_ID_LENGTH} characters`);
    expect(Object.keys(op.responses)).toContain('404');
  });
});

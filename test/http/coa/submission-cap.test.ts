import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { expectVerification } from './form.ts';

/**
 * COA_MAX_OPEN_SUBMISSIONS: one account's uploads may have so many submissions awaiting review at
 * once; past it a new one is 429 with Retry-After and nothing is queued, and a decision frees room.
 */
describe.each(DIALECTS)('submissions awaiting review per account (%s)', (dialect) => {
  let f: CoaFixture;
  beforeAll(async () => {
    f = await setupCoa(dialect, { maxOpenSubmissions: 2 });
  });
  afterAll(async () => f?.ctx.close());

  it('the third open submission is refused, documents that need no review are not, a decision frees room', async () => {
    for (const batch of ['CAP-1', 'CAP-2']) {
      const v = expectVerification(
        await f.upload({ file: await coa({ batch }), peptide: 'bpc-157', vendor: 'aurora' }),
      );
      expect(v.status).toBe('pending_review');
    }
    const third = await f.upload({
      file: await coa({ batch: 'CAP-3' }),
      peptide: 'bpc-157',
      vendor: 'aurora',
    });
    expect(third.statusCode).toBe(429);
    expect(third.json().error.code).toBe('rate_limited');
    expect(third.json().error.message).toContain('2 CoA submissions awaiting review');
    expect(third.headers['retry-after']).toBe('3600');
    expect(await f.batchState('CAP-3', 'aurora')).toBe('missing');
    // A document on file is still verified: only new submissions are capped.
    const onFile = expectVerification(
      await f.upload({ file: await coa({ batch: 'NW-1001' }), peptide: 'bpc-157', vendor: 'aurora' }),
    );
    expect(onFile.status).toBe('verified');
    // Another account has its own room.
    const other = await f.ctx.keyFor('enterprise', 'cap-other');
    expect(
      expectVerification(
        await f.upload({ file: await coa({ batch: 'CAP-9' }), peptide: 'bpc-157', vendor: 'aurora' }, other),
      ).status,
    ).toBe('pending_review');
    // An operator decides one: room for the next.
    expect((await f.admin('POST', '/vendors/aurora/batches/CAP-1/reject')).statusCode).toBe(200);
    const after = expectVerification(
      await f.upload({ file: await coa({ batch: 'CAP-3' }), peptide: 'bpc-157', vendor: 'aurora' }),
    );
    expect(after.status).toBe('pending_review');
  });
});

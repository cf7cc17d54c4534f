import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { codes, expectVerification } from './form.ts';

/**
 * An upload's database work runs on the CoA store thread (decision 0025) unless COA_STORE_THREAD is
 * off. Both ways must answer alike: the same verdicts, the queued submission visible to Variant B as
 * soon as the upload is answered (the thread's commit is another connection's), the same cap on
 * open submissions (counted by the store).
 */
describe.each(DIALECTS)('the CoA upload with and without its store thread (%s)', (dialect) => {
  for (const storeThread of [true, false]) {
    describe(`COA_STORE_THREAD=${storeThread}`, () => {
      let f: CoaFixture;
      beforeAll(async () => {
        f = await setupCoa(dialect, { storeThread, maxOpenSubmissions: 1 });
      });
      afterAll(async () => f?.ctx.close());

      it('queues a plausible document: B, asked before and right after the answer, says missing then pending', async () => {
        const batch = `ST-${storeThread ? 'ON' : 'OFF'}-1`;
        // Asked first, so a stale answer would have something to come from.
        expect(await f.batchState(batch, 'aurora')).toBe('missing');
        const v = expectVerification(
          await f.upload({
            file: await coa({ batch, compound: 'BPC-157', purity: 99.0 }),
            peptide: 'bpc-157',
            vendor: 'aurora',
          }),
        );
        expect(v.status).toBe('pending_review');
        expect(codes(v)).toContain('submission_queued');
        // No wait, no retry. (That the state is read from after the thread's commit, even with a read
        // in flight across it, is test/storage/store-thread.test.ts's refreshFromNow case.)
        expect(await f.batchState(batch, 'aurora')).toBe('pending');
        const thread = f.ctx.container.coaStoreThread;
        if (storeThread) expect(thread?.current).toBeTruthy();
        else expect(thread).toBeNull();
      });

      it('verifies against the record on file, and reads the verdict back by id', async () => {
        const v = expectVerification(
          await f.upload({
            file: await coa({ batch: 'NW-1001', compound: 'BPC-157', purity: 99.2 }),
            peptide: 'bpc-157',
            batch_id: 'NW-1001',
            vendor: 'aurora',
          }),
        );
        expect(v.status).toBe('verified');
        const again = await f.get(v.verification_id);
        expect(again.statusCode).toBe(200);
        expect(again.json().verification_id).toBe(v.verification_id);
      });

      it('the cap on open submissions counts through the store: the second queued upload is 429', async () => {
        // A fresh account: the cap (1 here) is per account.
        const k = await f.ctx.keyFor('enterprise');
        const first = await f.upload(
          {
            file: await coa({ batch: 'ST-CAP-1', compound: 'BPC-157', purity: 99.0 }),
            peptide: 'bpc-157',
            vendor: 'aurora',
          },
          k,
        );
        expect(expectVerification(first).status).toBe('pending_review');
        const second = await f.upload(
          {
            file: await coa({ batch: 'ST-CAP-2', compound: 'BPC-157', purity: 99.0 }),
            peptide: 'bpc-157',
            vendor: 'aurora',
          },
          k,
        );
        expect(second.statusCode, second.body).toBe(429);
        expect(second.json().error.code).toBe('rate_limited');
        expect(await f.batchState('ST-CAP-2', 'aurora')).toBe('missing');
      });
    });
  }
});

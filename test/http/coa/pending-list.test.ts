import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { expectVerification } from './form.ts';

describe.each(DIALECTS)(
  'the review queue lists a bounded number of uploads per submission (%s)',
  (dialect) => {
    let f: CoaFixture;
    beforeAll(async () => {
      f = await setupCoa(dialect);
    });
    afterAll(async () => f?.ctx.close());

    it('25 distinct files joined to one submission: the first 20 listed, all 25 counted', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        f.ctx.clock.advance(1000);
        const v = expectVerification(
          await f.upload({
            file: await coa({ batch: 'MANY-1', purity: 98 + i / 100 }),
            peptide: 'bpc-157',
            vendor: 'aurora',
          }),
        );
        ids.push(v.verification_id);
      }
      const res = await f.admin('GET', '/batches/pending?limit=200');
      const item = res.json().data.find((x: { batchId: string }) => x.batchId === 'MANY-1');
      expect(item.uploadsTotal).toBe(25);
      expect(item.uploads.map((u: { verificationId: string }) => u.verificationId)).toEqual(ids.slice(0, 20));
    });
  },
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { codes, expectVerification } from './form.ts';

describe.each(DIALECTS)('two uploads of one new batch at once (%s)', (dialect) => {
  let f: CoaFixture;
  beforeAll(async () => {
    f = await setupCoa(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('one queues the submission, the other joins it; neither overwrites the other', async () => {
    const other = await f.ctx.keyFor('enterprise', 'race-other');
    const [a, b] = await Promise.all([
      f.upload({ file: await coa({ batch: 'RACE-1', purity: 99.1 }), peptide: 'bpc-157', vendor: 'aurora' }),
      f.upload(
        { file: await coa({ batch: 'RACE-1', purity: 97.2 }), peptide: 'bpc-157', vendor: 'aurora' },
        other,
      ),
    ]);
    const va = expectVerification(a);
    const vb = expectVerification(b);
    const notes = [codes(va), codes(vb)];
    expect(notes.filter((n) => n.includes('submission_queued'))).toHaveLength(1);
    const joined = notes.find((n) => n.includes('submission_exists'));
    expect(joined).toBeDefined();
    expect(joined).toContain('submission_differs');
    const pending = await f.admin('GET', '/batches/pending?limit=200');
    const item = pending.json().data.find((x: { batchId: string }) => x.batchId === 'RACE-1');
    expect(item.uploads).toHaveLength(2);
    // The submission keeps the facts of the upload that queued it.
    const first = [va, vb].find((v) => codes(v).includes('submission_queued'));
    expect(item.purity).toBe(first?.extracted.purity);
  });
});

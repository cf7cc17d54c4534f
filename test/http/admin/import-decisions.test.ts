import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, adminAuth, iso, LAB, setupAdmin } from './helpers.ts';

/**
 * An operator's decision on a batch is never undone by a file (docs/import-format.md, "Decided
 * batches"): a `pending` line leaves a decided batch and its test facts as the decision set them,
 * while an explicit `approved` / `rejected` in a file is a decision, with its event.
 */
describe.each(DIALECTS)('import after an operator decision (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const importFile = async (records: Record<string, unknown>[]) => {
    const res = await f.ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: { ...adminAuth, 'content-type': 'application/x-ndjson' },
      payload: `${records.map((r) => JSON.stringify(r)).join('\n')}\n`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const state = async () => (await f.publicB('/batches/PEND-7?vendor=borealis')).json().data.state as string;
  const stored = async () => (await f.ctx.container.store.operator.batch('borealis', 'PEND-7'))!;
  const coa = async () =>
    (await f.events()).filter((e) => e.type.startsWith('coa.')).map((e) => [e.type, e.data.batch_id]);

  // The file the submission came from: pending, with the vendor's own (untested) figures.
  const submission = {
    type: 'batch',
    vendorSlug: 'borealis',
    batchId: 'PEND-7',
    peptideSlug: 'bpc-157',
    purity: 90,
    lab: LAB,
    testMethod: 'vendor estimate',
    status: 'pending',
    submittedAt: iso(-3 * DAY_MS),
  };
  const facts = { purity: 98.7, lab: LAB, testMethod: 'HPLC', testedAt: iso(-DAY_MS) };

  it('re-importing the pending submission after an approval changes nothing: still verified, same score, no event', async () => {
    expect((await importFile([submission])).lines).toBe(1);
    expect(await state()).toBe('pending');
    const res = await f.call('POST', '/vendors/borealis/batches/PEND-7/approve', facts);
    expect(res.statusCode, res.body).toBe(200);
    expect(await state()).toBe('verified');
    const score = await f.publicScore('borealis');
    const events = await f.events();
    const before = await stored();
    expect(before).toMatchObject({ status: 'approved', ...facts });

    await importFile([submission]);
    expect(await state()).toBe('verified');
    expect(await stored()).toEqual(before);
    expect(await f.publicScore('borealis')).toBe(score);
    expect(await f.events()).toEqual(events);
    // Twice is the same as once.
    await importFile([submission]);
    expect(await stored()).toEqual(before);
    expect(await f.events()).toEqual(events);
  });

  it("a pending line's submission fields still apply to a decided batch; its test facts do not", async () => {
    await importFile([
      { ...submission, source: 'vendor-portal', sourceUrl: 'https://borealis.example/coa/7.pdf' },
    ]);
    expect(await stored()).toMatchObject({
      status: 'approved',
      ...facts,
      source: 'vendor-portal',
      sourceUrl: 'https://borealis.example/coa/7.pdf',
    });
    expect(await state()).toBe('verified');
  });

  it('an explicit rejected in a file reverses the approval with coa.rejected; approved reverses it back with coa.approved', async () => {
    const seen = (await coa()).length;
    await importFile([{ ...submission, status: 'rejected' }]);
    expect(await state()).toBe('missing');
    expect((await coa()).slice(seen)).toEqual([['coa.rejected', 'PEND-7']]);
    // A pending line does not reopen a rejection either.
    await importFile([submission]);
    expect(await stored()).toMatchObject({ status: 'rejected' });
    expect((await coa()).slice(seen)).toEqual([['coa.rejected', 'PEND-7']]);

    await importFile([{ ...submission, status: 'approved', ...facts }]);
    expect(await state()).toBe('verified');
    const after = (await f.events()).filter((e) => e.type.startsWith('coa.')).slice(seen);
    expect(after.map((e) => e.type)).toEqual(['coa.rejected', 'coa.approved']);
    expect(after[1]!.data).toMatchObject({ batch_id: 'PEND-7', purity: 98.7, test_method: 'HPLC' });
    // The same decision again is not a new one.
    await importFile([{ ...submission, status: 'approved', ...facts }]);
    expect((await coa()).slice(seen)).toHaveLength(2);
  });
});

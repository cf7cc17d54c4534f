import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfReader } from '../../../src/core/coa/model.ts';
import { DIALECTS } from '../../support/databases.ts';
import { expectError } from '../variant-b/fixtures.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { expectVerification, type VerificationBody } from './form.ts';

/**
 * The same file, uploaded again by the same account, answers the earlier result (same id, same
 * body) without reading the PDF again or queueing it twice; another account gets its own
 * verification; a verification is readable by its account only.
 */
describe.each(DIALECTS)('CoA verification ids and repeats (%s)', (dialect) => {
  let f: CoaFixture;
  let other: string;
  /** PDFs handed to the reader (the worker pool) since the suite started. */
  let reads = 0;
  beforeAll(async () => {
    f = await setupCoa(dialect);
    other = await f.ctx.keyFor('enterprise', 'coa-idem-other');
    // Count the documents the verifier hands to the reader (it holds this very object).
    const reader: PdfReader = f.ctx.container.pdf;
    const read = reader.read.bind(reader);
    reader.read = (bytes) => {
      reads++;
      return read(bytes);
    };
  });
  afterAll(async () => f?.ctx.close());

  let file: Uint8Array;
  let first: VerificationBody;

  it('the same file and fields again: the same verification, not read again, not queued again', async () => {
    file = await coa({ batch: 'IDEM-1' });
    first = expectVerification(await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora' }));
    expect(first.status).toBe('pending_review');
    expect(reads).toBe(1);
    const version = f.dataVersion();
    const events = (await f.events()).length;
    const pendingBefore = await f.pendingBatchIds();

    f.ctx.clock.set(f.ctx.clock.now() + 5 * 60_000);
    const again = expectVerification(await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora' }));
    expect(again).toEqual(first);
    expect(reads).toBe(1);
    expect(f.dataVersion()).toBe(version);
    expect((await f.events()).length).toBe(events);
    expect(await f.pendingBatchIds()).toEqual(pendingBefore);
    const listed = (await f.admin('GET', '/batches/pending?limit=200'))
      .json()
      .data.find((b: { batchId: string }) => b.batchId === 'IDEM-1');
    expect(listed.uploads).toHaveLength(1);
  });

  it('the same request spelled differently (alias, batch case) is the same request', async () => {
    const file2 = await coa({ batch: 'NW-1001' });
    const a = expectVerification(
      await f.upload({ file: file2, peptide: 'bpc-157', batch_id: 'NW-1001', vendor: 'aurora' }),
    );
    const b = expectVerification(
      await f.upload({ file: file2, peptide: 'BPC157', batch_id: ' nw-1001 ', vendor: 'aurora' }),
    );
    expect(a.status).toBe('verified');
    expect(b.verification_id).toBe(a.verification_id);
  });

  it('the same file with other fields: a new verification, but the file is not read again', async () => {
    const before = reads;
    const v = expectVerification(
      await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora', batch_id: 'IDEM-1' }),
    );
    expect(v.verification_id).not.toBe(first.verification_id);
    expect(v.extracted).toEqual(first.extracted);
    expect(reads).toBe(before);
  });

  it('the same file from another account: its own verification (and its own reading)', async () => {
    const before = reads;
    const v = expectVerification(await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora' }, other));
    expect(v.verification_id).not.toBe(first.verification_id);
    expect(v.extracted).toEqual(first.extracted);
    expect(reads).toBe(before + 1);
    // It joins the submission the first upload queued.
    expect(v.review).toEqual({ state: 'pending', vendor: 'aurora', batch_id: 'IDEM-1' });
    expect((await f.get(v.verification_id, other)).statusCode).toBe(200);
    expectError(await f.get(v.verification_id), 404, 'not_found');
  });

  it('GET by the owner: 200, the same body', async () => {
    const res = await f.get(first.verification_id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(first);
  });

  it("GET of another account's verification: 404, as for one that does not exist", async () => {
    const theirs = expectError(await f.get(first.verification_id, other), 404, 'not_found');
    const none = expectError(await f.get(`ver_${'0'.repeat(32)}`, other), 404, 'not_found');
    expect(theirs.message.replace(first.verification_id, 'X')).toBe(
      none.message.replace(`ver_${'0'.repeat(32)}`, 'X'),
    );
  });

  it.each([
    'abc',
    'ver_',
    `ver_${'0'.repeat(31)}`,
    `ver_${'G'.repeat(32)}`,
    `VER_${'0'.repeat(32)}`,
    "ver_' or '1'='1",
  ])('GET of a malformed id %j: 404', async (id) => {
    expectError(await f.get(id), 404, 'not_found');
  });

  it('concurrent uploads of one new file by one account: one verification, one submission', async () => {
    const race = await coa({ batch: 'IDEM-77' });
    const answers = await Promise.all(
      [1, 2, 3].map(() => f.upload({ file: race, peptide: 'bpc-157', vendor: 'aurora' })),
    );
    const ids = new Set(answers.map((r) => expectVerification(r).verification_id));
    expect(ids.size).toBe(1);
    expect((await f.pendingBatchIds()).filter((id) => id === 'aurora/IDEM-77')).toHaveLength(1);
    const listed = (await f.admin('GET', '/batches/pending?limit=200'))
      .json()
      .data.find((b: { batchId: string }) => b.batchId === 'IDEM-77');
    expect(listed.uploads).toHaveLength(1);
  });
});

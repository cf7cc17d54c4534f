import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptedPdf } from '../../support/coa/odd-pdfs.ts';
import { ADMIN_TOKEN, bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa } from '../coa/fixtures.ts';
import { parsePrometheusText, sampleValue } from './prometheus-text.ts';

/** CoA verifications by status, through the real upload endpoint and the PDF reader's pool. */
describe.each(DIALECTS)('/metrics: CoA verifications (%s)', (dialect) => {
  let f: CoaFixture;
  beforeAll(async () => {
    f = await setupCoa(dialect);
  });
  afterAll(async () => f?.ctx.close());

  const verified = async (status: string) => {
    const res = await f.ctx.app.inject({ url: '/metrics', headers: bearer(ADMIN_TOKEN) });
    expect(res.statusCode).toBe(200);
    return sampleValue(parsePrometheusText(res.body), 'purerank_coa_verifications_total', { status });
  };

  it('counts each verdict once, by status; a refused upload is no verification', async () => {
    const before = { verified: await verified('verified'), unreadable: await verified('unreadable') };
    const good = await f.upload({
      file: await coa({ batch: 'NW-1001', compound: 'BPC-157', purity: 99.2 }),
      peptide: 'BPC157',
      batch_id: 'nw-1001',
      vendor: 'aurora',
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().status).toBe('verified');
    const bad = await f.upload({ file: encryptedPdf(), peptide: 'bpc-157', vendor: 'aurora' });
    expect(bad.json().status).toBe('unreadable');
    // No file: a 400 before any verdict.
    expect((await f.upload({ peptide: 'bpc-157' })).statusCode).toBe(400);
    expect(await verified('verified')).toBe(before.verified + 1);
    expect(await verified('unreadable')).toBe(before.unreadable + 1);
    expect(await verified('mismatch')).toBe(0);
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannedPagePng } from '../../support/coa/odd-pdfs.ts';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { expectError } from '../variant-b/fixtures.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { coaParts, expectVerification, multipart, type Part, postParts, VERIFY } from './form.ts';

/** Small, so the size limit is cheap to pass; the framing allowance is the route's 64 KiB. */
const MAX_BYTES = 96 * 1024;

/** A PDF of exactly `size` bytes: a real CoA, then a PDF comment after %%EOF padding it out. */
async function pdfOfSize(size: number, batch: string): Promise<Uint8Array> {
  const base = Buffer.from(await coa({ batch }));
  if (base.length + 3 > size) throw new Error(`the CoA alone is ${base.length} bytes`);
  const pad = Buffer.alloc(size - base.length, 0x20);
  pad[0] = 0x25; // '%': the rest of the padding is a comment line
  pad[pad.length - 1] = 0x0a;
  return new Uint8Array(Buffer.concat([base, pad]));
}

/**
 * The form's rules: which fields, how many, what a `file` must be and how large. Every refusal is
 * the documented error body with the rate-limit headers, and changes nothing: no verification is
 * kept for the file, nothing is queued, the data version does not move.
 */
describe.each(DIALECTS)('POST /v1/coa/verify: the form (%s)', (dialect) => {
  let f: CoaFixture;
  let seq = 0;
  beforeAll(async () => {
    f = await setupCoa(dialect, { maxBytes: MAX_BYTES });
  });
  afterAll(async () => f?.ctx.close());

  /** A plausible CoA of a batch on file nowhere: accepted, it would be queued as pending. */
  const freshCoa = async () => {
    const batch = `FORM-${++seq}`;
    return { batch, file: await coa({ batch }) };
  };

  /**
   * Sends the parts, expects the refusal, and checks it changed nothing. `file` is the PDF among
   * the parts (if any) and `batch` the batch it states.
   */
  const refused = async (
    send: () => Promise<LightMyRequestResponse>,
    status: number,
    code: string,
    doc?: { file: Uint8Array; batch: string },
  ): Promise<string> => {
    const version = f.dataVersion();
    const pending = await f.pendingBatchIds();
    const events = (await f.events()).length;
    const res = await send();
    const err = expectError(res, status, code);
    expect(res.headers['x-ratelimit-limit']).toBe('10000');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(f.dataVersion()).toBe(version);
    expect(await f.pendingBatchIds()).toEqual(pending);
    expect((await f.events()).length).toBe(events);
    if (doc) {
      expect(await f.storedFor(doc.file)).toBeNull();
      expect(await f.batchState(doc.batch)).toBe('missing');
    }
    return err.message;
  };
  const send =
    (parts: Part[], headers: Record<string, string> = {}) =>
    () =>
      postParts(f.ctx, f.key, parts, headers);

  describe('400 invalid_parameter naming the field', () => {
    it('no `file`', async () => {
      const msg = await refused(
        send(coaParts({ peptide: 'bpc-157', vendor: 'aurora' })),
        400,
        'invalid_parameter',
      );
      expect(msg).toContain("'file'");
    });

    it('no `peptide`', async () => {
      const doc = await freshCoa();
      const msg = await refused(
        send(coaParts({ file: doc.file, vendor: 'aurora' })),
        400,
        'invalid_parameter',
        doc,
      );
      expect(msg).toContain("'peptide'");
    });

    it.each([
      ['peptide', ''],
      ['peptide', '   '],
      ['batch_id', ''],
      ['batch_id', ' \t '],
      ['vendor', ''],
    ] as const)('an empty `%s` (%j)', async (name, value) => {
      const doc = await freshCoa();
      const form = { file: doc.file, peptide: 'bpc-157', vendor: 'aurora', [name]: value };
      const msg = await refused(send(coaParts(form)), 400, 'invalid_parameter', doc);
      expect(msg).toContain(`'${name}'`);
    });

    it.each([
      ['`peptide` over the form field size', 'peptide', 'x'.repeat(2000)],
      ['`peptide` over 100 characters', 'peptide', 'b'.repeat(101)],
      ['`batch_id` over 128 characters', 'batch_id', 'B'.repeat(129)],
      ['`batch_id` with a control character', 'batch_id', 'NW-1001\u0000'],
      ['`vendor` with a line break', 'vendor', 'aurora\r\nx'],
    ] as const)('%s', async (_why, name, value) => {
      const doc = await freshCoa();
      const form = { file: doc.file, peptide: 'bpc-157', vendor: 'aurora', [name]: value };
      const msg = await refused(send(coaParts(form)), 400, 'invalid_parameter', doc);
      expect(msg).toContain(`'${name}'`);
    });

    it('an empty file', async () => {
      const msg = await refused(
        send(coaParts({ file: new Uint8Array(0), peptide: 'bpc-157' })),
        400,
        'invalid_parameter',
      );
      expect(msg).toContain("'file'");
    });

    it('a field the form does not take', async () => {
      const doc = await freshCoa();
      const parts = [...coaParts({ file: doc.file, peptide: 'bpc-157' }), { name: 'lot', value: 'FORM-X' }];
      expect(await refused(send(parts), 400, 'invalid_parameter', doc)).toContain("'lot'");
    });

    it('the PDF under another name than `file`', async () => {
      const doc = await freshCoa();
      const parts: Part[] = [
        { name: 'document', filename: 'coa.pdf', data: doc.file },
        { name: 'peptide', value: 'bpc-157' },
      ];
      expect(await refused(send(parts), 400, 'invalid_parameter', doc)).toContain("'document'");
    });

    it('two files', async () => {
      const doc = await freshCoa();
      const other = await freshCoa();
      const parts: Part[] = [
        { name: 'file', filename: 'a.pdf', data: doc.file },
        { name: 'file', filename: 'b.pdf', data: other.file },
        { name: 'peptide', value: 'bpc-157' },
        { name: 'vendor', value: 'aurora' },
      ];
      expect(await refused(send(parts), 400, 'invalid_parameter', doc)).toContain("'file'");
      expect(await f.batchState(other.batch)).toBe('missing');
    });

    it('a body without a boundary in its Content-Type', async () => {
      const doc = await freshCoa();
      const { body } = multipart(coaParts({ file: doc.file, peptide: 'bpc-157' }));
      await refused(
        () =>
          f.ctx.app.inject({
            method: 'POST',
            url: VERIFY,
            headers: { ...bearer(f.key), 'content-type': 'multipart/form-data' },
            payload: body,
          }),
        400,
        'invalid_parameter',
        doc,
      );
    });

    // Busboy's file limit counted every file part, so this was "Parameter 'file' is given more
    // than once"; the route now names each file part itself.
    it('`peptide` sent as a file part: 400 naming `peptide`', async () => {
      const doc = await freshCoa();
      const parts: Part[] = [
        { name: 'file', filename: 'coa.pdf', data: doc.file },
        { name: 'peptide', filename: 'peptide.txt', data: Buffer.from('bpc-157'), contentType: 'text/plain' },
      ];
      expect(await refused(send(parts), 400, 'invalid_parameter', doc)).toContain("'peptide'");
    });

    // It once said `file` "is not a field of this form: it takes file, …", contradicting itself.
    it('`file` sent as a text field: 400 naming `file`, saying it must be a file', async () => {
      const msg = await refused(
        send([
          { name: 'file', value: 'JVBERi0xLjcK' },
          { name: 'peptide', value: 'bpc-157' },
        ]),
        400,
        'invalid_parameter',
      );
      expect(msg).toContain("'file'");
      expect(msg).not.toMatch(/not a field of this form/);
    });

    it('a field given twice', async () => {
      const doc = await freshCoa();
      const parts = [
        ...coaParts({ file: doc.file, peptide: 'bpc-157', vendor: 'aurora' }),
        { name: 'vendor', value: 'helix' },
      ];
      expect(await refused(send(parts), 400, 'invalid_parameter', doc)).toContain("'vendor'");
    });

    it('a peptide the library does not know', async () => {
      const doc = await freshCoa();
      const msg = await refused(
        send(coaParts({ file: doc.file, peptide: 'unobtainium-9' })),
        400,
        'invalid_parameter',
        doc,
      );
      expect(msg).toContain("'peptide'");
    });

    it.each(['nope', 'Aurora Peptide Works'])('a vendor that is not a known slug (%j)', async (vendor) => {
      const doc = await freshCoa();
      const msg = await refused(
        send(coaParts({ file: doc.file, peptide: 'bpc-157', vendor })),
        400,
        'invalid_parameter',
        doc,
      );
      expect(msg).toContain("'vendor'");
    });

    it('a body that ends before the closing boundary', async () => {
      const doc = await freshCoa();
      const { body, contentType } = multipart(coaParts({ file: doc.file, peptide: 'bpc-157' }));
      const cut = body.subarray(0, body.length - 200);
      const msg = await refused(
        () =>
          f.ctx.app.inject({
            method: 'POST',
            url: VERIFY,
            headers: { ...bearer(f.key), 'content-type': contentType },
            payload: cut,
          }),
        400,
        'invalid_parameter',
        doc,
      );
      expect(msg).not.toMatch(/busboy|stream/i);
    });
  });

  describe('415 unsupported_media_type', () => {
    it('a JSON body', async () => {
      await refused(
        () =>
          f.ctx.app.inject({
            method: 'POST',
            url: VERIFY,
            headers: { ...bearer(f.key), 'content-type': 'application/json' },
            payload: JSON.stringify({ peptide: 'bpc-157', file: 'JVBERi0xLjcK' }),
          }),
        415,
        'unsupported_media_type',
      );
    });

    it('a bare PDF body (application/pdf, not a form)', async () => {
      const doc = await freshCoa();
      await refused(
        () =>
          f.ctx.app.inject({
            method: 'POST',
            url: VERIFY,
            headers: { ...bearer(f.key), 'content-type': 'application/pdf' },
            payload: Buffer.from(doc.file),
          }),
        415,
        'unsupported_media_type',
        doc,
      );
    });

    it('a PNG named coa.pdf and sent as application/pdf', async () => {
      const png = scannedPagePng(64, 64);
      const parts: Part[] = [
        { name: 'file', filename: 'coa.pdf', data: png, contentType: 'application/pdf' },
        { name: 'peptide', value: 'bpc-157' },
        { name: 'vendor', value: 'aurora' },
      ];
      const msg = await refused(send(parts), 415, 'unsupported_media_type');
      expect(msg).toMatch(/PDF/);
      expect(await f.storedFor(png)).toBeNull();
    });

    it('a PDF is a PDF by its bytes: sent as application/octet-stream named coa.bin, or after 500 bytes of junk', async () => {
      for (const [batch, pad] of [
        ['BYTES-1', 0],
        ['BYTES-2', 500],
      ] as const) {
        const pdf = Buffer.from(await coa({ batch }));
        const file = new Uint8Array(Buffer.concat([Buffer.alloc(pad, 0x20), pdf]));
        const parts: Part[] = [
          { name: 'file', filename: 'coa.bin', data: file, contentType: 'application/octet-stream' },
          { name: 'peptide', value: 'bpc-157' },
          { name: 'vendor', value: 'aurora' },
        ];
        const v = expectVerification(await postParts(f.ctx, f.key, parts));
        expect(v).toMatchObject({ status: 'pending_review', extracted: { batch } });
      }
    });

    it('a PDF signature past the first 1024 bytes does not make a file a PDF', async () => {
      const doc = await freshCoa();
      const late = new Uint8Array(Buffer.concat([Buffer.alloc(1100, 0x20), Buffer.from(doc.file)]));
      await refused(
        send(coaParts({ file: late, peptide: 'bpc-157', vendor: 'aurora' })),
        415,
        'unsupported_media_type',
      );
      expect(await f.storedFor(late)).toBeNull();
    });
  });

  describe('413 file_too_large', () => {
    it('a file of exactly the limit is read; one byte more is 413', async () => {
      const at = await pdfOfSize(MAX_BYTES, 'FL-4401');
      const v = expectVerification(
        await postParts(f.ctx, f.key, coaParts({ file: at, peptide: 'bpc-157', vendor: 'aurora' })),
      );
      expect(v.status, JSON.stringify(v.notes)).toBe('pending_review');
      expect(v.extracted.batch).toBe('FL-4401');

      const over = await pdfOfSize(MAX_BYTES + 1, 'FL-4402');
      const msg = await refused(
        send(coaParts({ file: over, peptide: 'bpc-157', vendor: 'aurora' })),
        413,
        'file_too_large',
        {
          file: over,
          batch: 'FL-4402',
        },
      );
      expect(msg).toContain(String(MAX_BYTES));
    });

    it('a body whose Content-Length passes the limit and the form allowance: refused from the header', async () => {
      const big = await pdfOfSize(MAX_BYTES * 3, 'FL-4403');
      await refused(
        send(coaParts({ file: big, peptide: 'bpc-157', vendor: 'aurora' })),
        413,
        'file_too_large',
        {
          file: big,
          batch: 'FL-4403',
        },
      );
    });
  });

  it('after all those refusals, a good upload is still read', async () => {
    const doc = await freshCoa();
    const v = expectVerification(
      await postParts(f.ctx, f.key, coaParts({ file: doc.file, peptide: 'bpc-157', vendor: 'aurora' })),
    );
    expect(v).toMatchObject({ status: 'pending_review', review: { state: 'pending', batch_id: doc.batch } });
  });
});

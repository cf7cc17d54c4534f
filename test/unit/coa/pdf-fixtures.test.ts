import { createHash } from 'node:crypto';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { readPdfText } from '../../../src/adapters/pdf/read-pdf.ts';
import { extractFields } from '../../../src/core/coa/extract-fields.ts';
import { deflatedZeros } from '../../support/coa/hostile-pdfs.ts';
import {
  decompressionBombPdf,
  deeplyNestedPdf,
  encryptedPdf,
  imageOnlyPdf,
  lyingPageCountPdf,
  makeCoa,
  makeManyCoas,
  manyPagesPdf,
  TEMPLATES,
  truncatedPdf,
} from '../../support/coa/index.ts';

/**
 * The odd and hostile fixtures do what they claim, read in this thread (each is fast here: the
 * page, inflation and parse limits answer before any real work), with a control beside each so a
 * fixture that is merely broken cannot pass for a hostile one.
 */
const LIMITS = { maxPages: 20, maxInflatedBytes: 64 * 2 ** 20 };
const read = (bytes: Uint8Array) => readPdfText(bytes.slice(), LIMITS);

describe('odd PDFs', () => {
  it('a scanned page (an image, no text layer) is no_text', async () => {
    const bytes = await imageOnlyPdf();
    expect(await read(bytes)).toEqual({ ok: false, reason: 'no_text' });
    // It does hold the image.
    expect(Buffer.from(bytes).includes('/Subtype /Image')).toBe(true);
  });

  it('an encrypted file is encrypted without its password, and readable with it', async () => {
    const bytes = encryptedPdf('lab-only');
    expect(await read(bytes)).toEqual({ ok: false, reason: 'encrypted' });
    const task = getDocument({ data: bytes.slice(), password: 'lab-only', verbosity: 0 });
    try {
      const doc = await task.promise;
      const content = await (await doc.getPage(1)).getTextContent();
      const text = content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
      expect(text).toContain('Lot No.: ENC-2231');
    } finally {
      await task.destroy();
    }
  });

  it('a CoA cut in half is corrupt (or has no text left)', async () => {
    const r = await read(await truncatedPdf());
    expect(r.ok).toBe(false);
    expect(['corrupt', 'no_text']).toContain(r.ok ? null : r.reason);
    // The whole file reads.
    expect((await read(await makeCoa(TEMPLATES.halcyon))).ok).toBe(true);
  });
});

describe('hostile PDFs', () => {
  it('5,000 pages are too_many_pages; a few of the same pages read', async () => {
    const bytes = manyPagesPdf();
    expect(bytes.length).toBeLessThan(2 * 2 ** 20);
    expect(await read(bytes)).toEqual({ ok: false, reason: 'too_many_pages' });
    const few = await read(manyPagesPdf(3));
    expect(few.ok && few.text.pageCount).toBe(3);
  });

  it('a page tree claiming 100,000 pages is counted by what it holds (pdfjs checks the last page)', async () => {
    const r = await read(lyingPageCountPdf());
    expect(r.ok && r.text.pageCount).toBe(1);
    // The claim is in the file.
    expect(Buffer.from(lyingPageCountPdf()).includes('/Count 100000')).toBe(true);
  });

  it('objects nested 50,000 deep are not read; nested 10 deep they are', async () => {
    const r = await read(deeplyNestedPdf());
    expect(r.ok).toBe(false);
    const shallow = await read(deeplyNestedPdf(10));
    expect(shallow.ok).toBe(true);
  });

  it('a stream that inflates to 4 GiB is inflate_limit, from a file of a few tens of KB', async () => {
    const bytes = decompressionBombPdf();
    expect(bytes.length).toBeLessThan(100_000);
    expect(await read(bytes)).toEqual({ ok: false, reason: 'inflate_limit' });
    // The same construction inflating to 1 MiB passes the guard (its zeros are no text).
    expect(await read(decompressionBombPdf(2 ** 20))).toEqual({ ok: false, reason: 'no_text' });
  });

  it('the hand-built deflate stream is valid zlib of zeros, checksum included', async () => {
    const { inflateSync } = await import('node:zlib');
    const out = inflateSync(deflatedZeros(300_000));
    expect(out.length).toBeGreaterThanOrEqual(300_000);
    expect(out.every((b) => b === 0)).toBe(true);
  });
});

describe('CoA fixtures', () => {
  it('metadata options land in the document information dictionary', async () => {
    const r = await read(
      await makeCoa(
        TEMPLATES.northwind,
        { testDate: '2026-03-12' },
        {
          producer: 'Adobe Photoshop 25.0',
          creator: null,
          creationDate: new Date('2026-03-13T10:00:00Z'),
          modificationDate: new Date('2026-05-01T08:30:00Z'),
        },
      ),
    );
    expect(r.ok && r.text.metadata).toEqual({
      producer: 'Adobe Photoshop 25.0',
      creator: null,
      creationDate: '2026-03-13T10:00:00.000Z',
      modDate: '2026-05-01T08:30:00.000Z',
    });
    const plain = await read(await makeCoa(TEMPLATES.kovalent, { testDate: '2026-03-12' }));
    expect(plain.ok && plain.text.metadata).toEqual({
      producer: TEMPLATES.kovalent.producer,
      creator: TEMPLATES.kovalent.creator,
      creationDate: '2026-03-13T15:30:00.000Z',
      modDate: '2026-03-13T15:30:00.000Z',
    });
  });

  it('makeManyCoas makes distinct two-page files that extract to their own batches', async () => {
    const files = await makeManyCoas(12);
    const hashes = new Set(files.map((f) => createHash('sha256').update(f).digest('hex')));
    expect(hashes.size).toBe(12);
    const last = await read(files[11] ?? new Uint8Array());
    expect(last.ok && last.text.pageCount).toBe(2);
    expect(last.ok && extractFields(last.text).batch).toBe('X-11');
  });
});

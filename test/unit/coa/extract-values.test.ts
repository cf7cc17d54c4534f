import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readPdfText } from '../../../src/adapters/pdf/read-pdf.ts';
import { renderCoa as renderSampleCoa } from '../../../src/adapters/pdf/render-coa.ts';
import { extractFields } from '../../../src/core/coa/extract-fields.ts';
import type { PdfText } from '../../../src/core/coa/model.ts';
import type { CoaFacts } from '../../../src/core/coa/sample.ts';
import { demoDataset } from '../../../src/seed/demo-dataset.ts';
import { scaleBatchId } from '../../../src/seed/scale-dataset.ts';

/**
 * Values in value position are read whole, even when they start with a word that is also a
 * label (`Lot No.:` then `LOT 5673`; `Client:` then `Lab Direct Inc`). Every case is a real PDF
 * read by pdfjs: the sample certificate `purerank coa sample` writes, or rows drawn here the same
 * way (label at x = 56 in bold, value at x = 220).
 */

const LIMITS = { maxPages: 20, maxInflatedBytes: 64 * 2 ** 20 };

async function textOf(bytes: Uint8Array): Promise<PdfText> {
  const r = await readPdfText(bytes.slice(), LIMITS);
  if (!r.ok) throw new Error(`unreadable fixture: ${r.reason}`);
  return r.text;
}

const SAMPLE: CoaFacts = {
  lab: 'Meridian Analytical',
  batch: 'BPC-2603-K07',
  compound: 'Tirzepatide',
  testDate: '2026-03-12',
  method: 'HPLC',
  purity: 99.41,
  client: 'Aurora Peptide Works',
};

/** What the sample certificate states, as the extractor must give it back. */
function stated(f: CoaFacts) {
  return {
    lab: f.lab,
    batch: f.batch,
    compound: f.compound,
    testDate: { iso: f.testDate, text: f.testDate, ambiguous: false },
    method: f.method,
    purity: f.purity,
    purityText: `${f.purity}%`,
    identity: 'Conforms',
    client: f.client,
    quantity: null,
    labelClaim: null,
    verificationKey: null,
    verificationUrl: null,
  };
}

async function roundTrip(over: Partial<CoaFacts>): Promise<void> {
  const f = { ...SAMPLE, ...over };
  expect(extractFields(await textOf(await renderSampleCoa(f)))).toEqual(stated(f));
}

/** Batch numbers in each shape the demo and scale datasets generate, from the generators. */
function datasetBatchIds(): string[] {
  const shape = (id: string) =>
    id
      .replace(/[A-Z]+/g, 'A')
      .replace(/[a-z]+/g, 'a')
      .replace(/\d+/g, '9');
  const byShape = new Map<string, string>();
  for (const b of demoDataset(Date.parse('2026-06-01T00:00:00Z')).batch) {
    if (!byShape.has(shape(b.batchId))) byShape.set(shape(b.batchId), b.batchId);
  }
  for (let i = 0; i < 4; i++) byShape.set(`scale ${i}`, scaleBatchId(i));
  return [...byShape.values()];
}

describe('the sample certificate round-trips every batch shape of the datasets', () => {
  const ids = datasetBatchIds();

  it('the datasets hold the shapes that start with a label word', () => {
    expect(ids.some((id) => /^LOT \d+$/.test(id))).toBe(true);
    expect(ids.some((id) => /^batch \d+ [a-z0-9]+$/.test(id))).toBe(true);
    expect(ids.length).toBeGreaterThanOrEqual(10);
  });

  it.each([...new Set(['LOT 5673', 'LOT 4151', 'batch 183 tirz', ...ids])])('%s', async (batch) => {
    await roundTrip({ batch });
  });
});

describe('values that start with a label word are values in value position', () => {
  it.each<[string, Partial<CoaFacts>]>([
    ['a compound starting with Sample', { compound: 'Sample 7 peptide blend' }],
    ['a compound that reads like a batch', { compound: 'Batch 77' }],
    ['a client starting with Lab', { client: 'Lab Direct Inc' }],
    ['a client starting with Batch', { client: 'Batch Analytical' }],
    ['a client starting with Purity and a percentage', { client: 'Purity 100% Labs' }],
    ['a client that reads like a purity', { client: 'Purity 100%' }],
    ['a client starting with Lot and a number', { client: 'Lot 42 Peptides' }],
    ['a lab (letterhead) starting with Batch', { lab: 'Batch Analytical' }],
  ])('%s', async (_, over) => {
    await roundTrip(over);
  });
});

type Cell = [text: string, x: number, size?: number];

/**
 * One page of rows 22 pt apart from y = 670, in 11 pt unless a cell says otherwise (pdfjs drops
 * text past the page edge); a cell at x < 200 is set in bold, like a label.
 */
async function pdfOfRows(rows: readonly (readonly Cell[])[]): Promise<PdfText> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  page.drawText('Meridian Analytical', { x: 56, y: 736, size: 18, font: bold });
  rows.forEach((row, i) => {
    for (const [text, x, size = 11] of row) {
      const font: PDFFont = x < 200 ? bold : regular;
      page.drawText(text, { x, y: 670 - i * 22, size, font });
    }
  });
  return textOf(await doc.save());
}

const pair = (label: string, value: string): Cell[] => [
  [label, 56],
  [value, 220, value.length > 40 ? 5 : 11],
];

describe('batch values on hand-drawn rows', () => {
  it.each<[string, Cell[][], string | null]>([
    ['label cell then value cell', [pair('Lot No.:', 'LOT 5673')], 'LOT 5673'],
    ['label without a colon then value cell', [pair('Lot No.', 'LOT 5673')], 'LOT 5673'],
    ['same cell after the colon', [[['Lot No.: LOT 5673', 56]]], 'LOT 5673'],
    ['batch then words', [[['Batch: batch 183 tirz', 56]]], 'batch 183 tirz'],
    ['a bracketed note after the number is not part of it', [[['Lot: A-123 (exp. 2028)', 56]]], 'A-123'],
    ['a second unlabelled field after the number', [[['Lot: LOT 5673 Exp: 2028-01', 56]]], 'LOT 5673'],
    ['prose after a label without a colon stays one word', [[['Lot # A-123', 56]]], 'A-123'],
    [
      'a row of labels over a row of values',
      [
        [
          ['Batch #', 56],
          ['Compound', 220],
        ],
        [
          ['LOT 5673', 56],
          ['GHK-Cu', 220],
        ],
      ],
      'LOT 5673',
    ],
    ['a value with no digit is not a batch number', [pair('Lot No.:', 'pending')], null],
    ['words after the colon are not a batch number', [[['Lot: see attached sheet 2', 56]]], null],
  ])('%s', async (_, rows, batch) => {
    expect(extractFields(await pdfOfRows(rows)).batch).toBe(batch);
  });

  it('a label word in the value cell does not start a second field', async () => {
    const f = extractFields(
      await pdfOfRows([pair('Client:', 'Purity 100% Labs'), pair('Purity (HPLC):', '99.41%')]),
    );
    expect(f).toMatchObject({ client: 'Purity 100% Labs', purity: 99.41 });
  });

  it.each<[string, string, Record<string, string>]>([
    ['Laboratory:', 'Batch Analytical', { lab: 'Batch Analytical' }],
    ['Laboratory:', 'Lot 42 Analytical Labs', { lab: 'Lot 42 Analytical Labs' }],
    ['Client:', 'Lab Direct Inc', { client: 'Lab Direct Inc' }],
    ['Client:', 'Sample 7 Peptides', { client: 'Sample 7 Peptides' }],
    ['Sample:', 'Sample 7 peptide blend', { compound: 'Sample 7 peptide blend' }],
    ['Sample:', 'Lot 9 blend', { compound: 'Lot 9 blend' }],
  ])('%s then %j', async (label, value, fields) => {
    const f = extractFields(await pdfOfRows([pair(label, value), pair('Lot No.:', 'A-12')]));
    expect(f).toMatchObject({ ...fields, batch: 'A-12' });
  });

  it('a label-only word in the value cell after a colon label is the value', async () => {
    const f = extractFields(await pdfOfRows([pair('Sample:', 'Assay'), pair('Lot No.:', 'A-1')]));
    expect(f).toMatchObject({ compound: 'Assay', batch: 'A-1', purity: null });
  });
});

describe('verification keys are the whole value', () => {
  it.each([
    ['AB12 CD34/&', 'AB12 CD34/&'],
    ['X&y=1#z', 'X&y=1#z'],
    ['NWA-7K2P-91QX', 'NWA-7K2P-91QX'],
    ['  K1 X9  ', 'K1 X9'],
    [`K${'1'.repeat(99)}`, `K${'1'.repeat(99)}`],
    [`K${'1'.repeat(100)}`, null],
    ['on request', null],
  ])('%j in the next cell', async (value, key) => {
    const f = extractFields(await pdfOfRows([pair('Lot No.:', 'A-1'), pair('Verification code:', value)]));
    expect(f.verificationKey).toBe(key);
  });

  it.each([
    ['AB12 CD34/&', 'AB12 CD34/&'],
    ['X&y=1#z', 'X&y=1#z'],
  ])('%j in the same cell after the colon', async (value, key) => {
    const f = extractFields(
      await pdfOfRows([pair('Lot No.:', 'A-1'), [[`Verification code: ${value}`, 56]]]),
    );
    expect(f.verificationKey).toBe(key);
  });
});

describe('a bare Key label', () => {
  it('reads a one-word code, not a legend', async () => {
    const legend = await pdfOfRows([pair('Lot No.:', 'A-1'), pair('Key:', 'ND = not detected, LOQ 0.1%')]);
    expect(extractFields(legend).verificationKey).toBeNull();
    const code = await pdfOfRows([pair('Lot No.:', 'A-1'), pair('Key:', 'QX-2231')]);
    expect(extractFields(code).verificationKey).toBe('QX-2231');
  });
});

describe('an impossible printed date', () => {
  it('31/02/2026 is not read as a date, and the rest of the document is', async () => {
    const f = extractFields(
      await pdfOfRows([
        pair('Lot No.:', 'A-1'),
        pair('Date tested:', '31/02/2026'),
        pair('Purity:', '99.1%'),
      ]),
    );
    expect(f).toMatchObject({ batch: 'A-1', testDate: null, purity: 99.1 });
  });
});

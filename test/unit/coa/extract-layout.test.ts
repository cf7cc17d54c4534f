import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readPdfText } from '../../../src/adapters/pdf/read-pdf.ts';
import { extractFields } from '../../../src/core/coa/extract-fields.ts';
import type { PdfText } from '../../../src/core/coa/model.ts';

/**
 * Cells that touch: table cells drawn with no horizontal gap between them, read by pdfjs and
 * laid out by layout.ts. Each run is drawn where the previous one ends, in the font named.
 */

const LIMITS = { maxPages: 5, maxInflatedBytes: 64 * 2 ** 20 };

type Face = 'regular' | 'bold' | 'italic' | 'times';
type Run = [text: string, face: Face];

/** Lines 20 pt apart from y = 700; each line's runs drawn end to end from x = 56, in 10 pt. */
async function touching(lines: readonly (readonly Run[])[]): Promise<PdfText> {
  const doc = await PDFDocument.create();
  const fonts: Record<Face, PDFFont> = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    times: await doc.embedFont(StandardFonts.TimesRoman),
  };
  const page = doc.addPage([612, 792]);
  page.drawText('Meridian Analytical', { x: 56, y: 750, size: 18, font: fonts.bold });
  lines.forEach((runs, i) => {
    let x = 56;
    for (const [text, face] of runs) {
      page.drawText(text, { x, y: 700 - 20 * i, size: 10, font: fonts[face] });
      x += fonts[face].widthOfTextAtSize(text, 10);
    }
  });
  const r = await readPdfText(await doc.save(), LIMITS);
  if (!r.ok) throw new Error(`unreadable fixture: ${r.reason}`);
  return r.text;
}

const cellsOf = (text: PdfText, line: number): string[] =>
  (text.pages[0]?.lines[line + 1]?.cells ?? []).map((c) => c.text);

describe('touching runs in different fonts', () => {
  it('a word ending where the next cell starts, in another font, is two cells', async () => {
    const text = await touching([
      [
        ['TB-500 (Thymosin Beta-4) 5 mg', 'regular'],
        ['TB5-TBL-9', 'bold'],
      ],
    ]);
    expect(cellsOf(text, 0)).toEqual(['TB-500 (Thymosin Beta-4) 5 mg', 'TB5-TBL-9']);
  });

  it('a label touching its value in another font is a label and a value', async () => {
    const text = await touching([
      [
        ['Sample', 'bold'],
        ['TB-500 (Thymosin Beta-4) 5 mg', 'regular'],
      ],
      [
        ['Lot', 'bold'],
        ['TB5-TBL-9', 'times'],
      ],
      [
        ['Purity', 'bold'],
        ['99.41%', 'regular'],
      ],
    ]);
    expect(extractFields(text)).toMatchObject({
      compound: 'TB-500 (Thymosin Beta-4)',
      batch: 'TB5-TBL-9',
      purity: 99.41,
    });
  });

  it('punctuation where the font changes stays in one cell (a qualifier in italics, a colon)', async () => {
    const text = await touching([
      [
        ['Purity (', 'regular'],
        ['HPLC', 'italic'],
        ['): 99.41%', 'regular'],
      ],
      [
        ['Lot No.:', 'bold'],
        [' A-1', 'regular'],
      ],
    ]);
    expect(cellsOf(text, 0)).toEqual(['Purity (HPLC): 99.41%']);
    expect(cellsOf(text, 1)).toEqual(['Lot No.: A-1']);
    expect(extractFields(text)).toMatchObject({ purity: 99.41, method: 'HPLC', batch: 'A-1' });
  });
});

import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { CoaFacts } from '../../core/coa/sample.ts';

/**
 * A plain one-page certificate of analysis in the common "label: value" layout, for
 * `purerank coa sample`. It is what a lab's report generator writes, not a template of a real lab.
 */
export async function renderCoa(f: CoaFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  const grey = rgb(0.35, 0.35, 0.35);
  page.drawText(f.lab, { x: 56, y: 736, size: 18, font: bold });
  page.drawText('Certificate of Analysis', { x: 56, y: 712, size: 13, font: regular, color: grey });
  page.drawLine({ start: { x: 56, y: 700 }, end: { x: 556, y: 700 }, thickness: 1, color: grey });
  const rows: [string, string][] = [
    ['Client:', f.client],
    ['Sample:', f.compound],
    ['Lot No.:', f.batch],
    ['Date tested:', f.testDate],
    ['Method:', f.method],
    ['Purity (HPLC):', `${f.purity}%`],
    ['Identity:', 'Conforms'],
  ];
  rows.forEach(([label, value], i) => {
    const y = 670 - i * 22;
    page.drawText(label, { x: 56, y, size: 11, font: bold });
    page.drawText(value, { x: 220, y, size: 11, font: regular });
  });
  page.drawText('Results relate only to the sample as received.', {
    x: 56,
    y: 90,
    size: 8,
    font: regular,
    color: grey,
  });
  doc.setTitle(`Certificate of Analysis ${f.batch}`);
  doc.setProducer(`${f.lab} LIMS`);
  doc.setCreator(`${f.lab} LIMS`);
  return doc.save();
}

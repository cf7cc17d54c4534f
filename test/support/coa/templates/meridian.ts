import { rgb } from 'pdf-lib';
import { GREY, LIGHT, Sheet } from '../sheet.ts';
import type { CoaTemplate } from '../template.ts';

const TEAL = rgb(0.0, 0.38, 0.4);

/**
 * (b) A results TABLE (`Test | Method | Specification | Result`) in which the purity row holds
 * the specification `≥98.0%` before the result; a sample block of `Label: value` runs
 * (`Batch:`, `Analysis date:`) with `12 Mar 2026` dates; a centred letterhead. Times, US Letter.
 */
export const meridian: CoaTemplate = {
  id: 'meridian',
  description: 'results table with a header row, "12 Mar 2026" dates, one page',
  lab: 'Meridian Peptide Testing, Inc.',
  family: 'times',
  dateStyle: 'day-mon-year',
  pages: 1,
  producer: 'ChromaSuite Report Designer 7.3',
  creator: 'ChromaSuite 7.3',
  printPurity: (p) => `${p.toFixed(2)}%`,
  draw(doc, fonts, p) {
    const f = p.facts;
    const s = new Sheet(doc.addPage([612, 792]), fonts);
    const L = 60;
    const R = 552;

    s.text(f.lab, 306, 740, { face: 'bold', size: 17, align: 'center', color: TEAL });
    s.text('Independent peptide and small-molecule testing', 306, 725, {
      face: 'italic',
      size: 9,
      align: 'center',
      color: GREY,
    });
    s.text('88 Commerce Way, Unit 5 · Rochester, NY 14623 · lab@meridian-testing.example', 306, 713, {
      size: 8,
      align: 'center',
      color: GREY,
    });
    s.rule(L, 703, R, 0.8, TEAL);

    s.text('Certificate of Analysis', L, 680, { face: 'bold', size: 14 });
    s.text(`Certificate No. MPT-26-${f.batch}`, R, 680, { size: 9, align: 'right' });

    // Sample information: each pair is one run (`Batch: X`), two columns.
    const left = [
      `Sample name: ${f.compound}`,
      `Batch: ${f.batch}`,
      `Client: ${f.client}`,
      `Received: ${p.received}`,
      `Analysis date: ${p.testDate}`,
    ];
    const right = [
      `Label claim: ${f.labelClaim}`,
      'Container: 2 mL glass vial, crimp seal',
      'Appearance: white lyophilized powder',
      'Storage: -20 °C, protected from light',
      `Date of report: ${p.reported}`,
    ];
    s.text('Sample information', L, 654, { face: 'bold', size: 10 });
    let y = 638;
    for (let i = 0; i < left.length; i++) {
      s.text(left[i] ?? '', L, y, { size: 10 });
      s.text(right[i] ?? '', 320, y, { size: 10 });
      y -= 14;
    }

    // The results table.
    y -= 16;
    const cols = [L + 4, 210, 300, 460];
    s.box(L, y - 5, R - L, 17, LIGHT);
    ['Test', 'Method', 'Specification', 'Result'].forEach((h, i) => {
      s.text(h, cols[i] ?? 0, y, { face: 'bold', size: 10 });
    });
    const rows: [string, string, string, string][] = [
      ['Appearance', 'Visual', 'White to off-white powder', 'Conforms'],
      ['Identity (ESI-MS)', 'LC-MS', 'Conforms to reference mass', f.identity],
      ['HPLC purity', p.method, '≥98.0%', p.purity],
      ['Peptide content', p.method, 'Report result', f.quantity],
      ['Water content (KF)', 'USP <921>', '≤8.0%', '4.2%'],
      ['Endotoxin', 'LAL', '< 5 EU/mg', '< 1 EU/mg'],
    ];
    y -= 20;
    for (const row of rows) {
      row.forEach((c, i) => {
        s.text(c, cols[i] ?? 0, y, { size: 10 });
      });
      s.rule(L, y - 5, R, 0.3, LIGHT);
      y -= 17;
    }

    y -= 8;
    s.text('Conclusion: the sample meets the stated specifications.', L, y, { face: 'bold', size: 10 });
    y = s.paragraph(
      'HPLC purity is the area percent of the main peak at 214 nm on a C18 column (gradient 10–70% B in ' +
        '25 min). Identity: the deconvoluted mass agrees with the theoretical monoisotopic mass within 1 Da. ' +
        'Results apply to the sample as received; sampling was performed by the client.',
      L,
      y - 18,
      R - L,
      { size: 9 },
    );

    y -= 24;
    s.text('Analyst', L, y, { face: 'bold', size: 9 });
    s.text('Reviewed by', 320, y, { face: 'bold', size: 9 });
    s.text('K. Lindqvist, Chemist II', L, y - 13, { size: 9 });
    s.text('R. Haddad, PhD, Laboratory Director', 320, y - 13, { size: 9 });
    s.text(p.reported, L, y - 26, { size: 9, color: GREY });
    s.text(p.reported, 320, y - 26, { size: 9, color: GREY });

    s.rule(L, 84, R, 0.5, GREY);
    s.text(`Verification key: ${f.verificationKey}`, L, 72, { size: 8 });
    if (f.verificationUrl) s.text(`Verify online: ${f.verificationUrl}`, L, 61, { size: 8 });
    s.text('Page 1 of 1', R, 72, { size: 8, align: 'right', color: GREY });
  },
};

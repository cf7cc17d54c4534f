import { rgb } from 'pdf-lib';
import { GREY, LIGHT, Sheet } from '../sheet.ts';
import type { CoaTemplate } from '../template.ts';

const RED = rgb(0.62, 0.1, 0.12);

/**
 * (d) A compact sheet with labels ABOVE values: rows of small grey labels (`Batch #`,
 * `Compound`, `Test date`, `Purity (HPLC)`, …) each over a row of values at the same x. Dotted
 * European dates `12.03.2026`, purity `99.20 %`, a bilingual title. Helvetica, A4.
 */
export const kovalent: CoaTemplate = {
  id: 'kovalent',
  description: 'labels above values in a grid, dotted European dates, A4',
  lab: 'Kovalent Analytik GmbH',
  family: 'helvetica',
  dateStyle: 'dotted',
  pages: 1,
  producer: 'PDFgen 9.3.1 (Win64)',
  creator: 'Kovalent LIMS 5',
  printPurity: (p) => `${p.toFixed(2)} %`,
  draw(doc, fonts, p) {
    const f = p.facts;
    const s = new Sheet(doc.addPage([595, 842]), fonts);
    const L = 48;
    const R = 547;

    s.box(L, 778, 22, 22, RED);
    s.text(f.lab, L + 30, 786, { face: 'bold', size: 14 });
    s.text(
      'Prüflabor für Peptide · Am Technologiepark 7 · 69120 Heidelberg · DAkkS D-PL-20417',
      L + 30,
      774,
      {
        size: 7,
        color: GREY,
      },
    );
    s.text('Prüfbericht / Certificate of Analysis', R, 786, { face: 'bold', size: 10, align: 'right' });
    s.rule(L, 764, R, 1, RED);

    const cols = [L, 160, 318, 440];
    const grid: [string, string][][] = [
      [
        ['Batch #', f.batch],
        ['Compound', f.compound],
        ['Test date', p.testDate],
        ['Client', f.client],
      ],
      [
        ['Purity (HPLC)', p.purity],
        ['Identity (MS)', f.identity],
        ['Content', f.quantity],
        ['Label claim', f.labelClaim],
      ],
      [
        ['Method', p.method],
        ['Date received', p.received],
        ['Report date', p.reported],
        ['Verification code', f.verificationKey],
      ],
    ];
    let y = 736;
    for (const row of grid) {
      s.box(L, y - 24, R - L, 34, LIGHT);
      row.forEach(([label, value], i) => {
        s.text(label, cols[i] ?? 0, y, { size: 7, color: GREY });
        s.text(value, cols[i] ?? 0, y - 16, { face: 'bold', size: 10 });
      });
      y -= 46;
    }

    y -= 6;
    s.text('Remarks', L, y, { face: 'bold', size: 9 });
    y = s.paragraph(
      'Purity by RP-HPLC, UV 215 nm, area-%. Identity by ESI-MS, observed mass consistent with the sequence. ' +
        'Content determined against a certified reference standard. Batch release is the responsibility of ' +
        'the client. Acceptance: purity ≥ 98 %, content 90–110 % of label claim.',
      L,
      y - 13,
      R - L,
      { size: 8 },
    );
    y -= 14;
    s.text('Analyst', L, y, { size: 7, color: GREY });
    s.text('Freigabe / Released by', 300, y, { size: 7, color: GREY });
    s.text('L. Brandt', L, y - 14, { size: 9.5 });
    s.text('Dr. H. Voss', 300, y - 14, { size: 9.5 });

    if (f.verificationUrl) s.text(`Verify: ${f.verificationUrl}`, L, 58, { size: 8 });
    s.paragraph(
      'Die Ergebnisse beziehen sich ausschließlich auf den untersuchten Prüfgegenstand. Results relate only ' +
        'to the item tested. For research use only.',
      L,
      44,
      R - L,
      { size: 6.5, color: GREY },
    );
    s.text('1/1', R, 24, { size: 7, align: 'right', color: GREY });
  },
};

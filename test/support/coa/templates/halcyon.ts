import { rgb } from 'pdf-lib';
import { GREY, LIGHT, Sheet } from '../sheet.ts';
import type { CoaTemplate } from '../template.ts';

const PLUM = rgb(0.36, 0.16, 0.4);

/**
 * (c) A TWO-PAGE report: page 1 holds the sample and the client (label cell, value cell), page 2
 * the results table (`Parameter | Method | Acceptance criteria | Result`, purity as `Assay`,
 * the label claim inside the criteria) and the signatures. `Lot`, `Test date: 03/12/2026`
 * (US month-first). Running header and `Page n of 2` footers. Helvetica, US Letter.
 */
export const halcyon: CoaTemplate = {
  id: 'halcyon',
  description: 'two pages: sample and client on page 1, results table and signatures on page 2, US dates',
  lab: 'Halcyon Bioanalytical Services',
  family: 'helvetica',
  dateStyle: 'us-slash',
  pages: 2,
  producer: 'Halcyon QMS 2.4 (PDF export)',
  creator: 'Halcyon QMS',
  printPurity: (p) => `${p.toFixed(1)} %`,
  draw(doc, fonts, p) {
    const f = p.facts;
    const L = 56;
    const R = 556;
    const header = (s: Sheet, n: number) => {
      s.box(L, 742, 6, 24, PLUM);
      s.text(f.lab, L + 14, 752, { face: 'bold', size: 13, color: PLUM });
      s.text('Analytical Chemistry Division · 1550 Research Pkwy, Durham, NC 27709', L + 14, 741, {
        size: 7,
        color: GREY,
      });
      s.text(`CoA HBS-${f.batch}`, R, 752, { size: 8, align: 'right', color: GREY });
      s.rule(L, 732, R, 0.8, PLUM);
      s.text(`Page ${n} of 2`, R, 36, { size: 7, align: 'right', color: GREY });
      s.text('Confidential: prepared for the client named on page 1', L, 36, { size: 7, color: GREY });
    };

    // Page 1: the sample.
    const s1 = new Sheet(doc.addPage([612, 792]), fonts);
    header(s1, 1);
    s1.text('Certificate of Analysis', L, 700, { face: 'bold', size: 16 });
    s1.text('Section 1 of 2: Sample information', L, 684, { size: 9, color: GREY });

    const info: [string, string][] = [
      ['Submitted by', f.client],
      ['Client reference', `PO-${f.batch}`],
      ['Compound', f.compound],
      ['Lot', f.batch],
      ['Sample description', 'Lyophilized powder in 3 mL vial'],
      ['Quantity submitted', '2 vials'],
      ['Sample received', p.received],
      ['Test date', p.testDate],
      ['Retest date', p.retest],
      ['Verification code', f.verificationKey],
    ];
    let y = 650;
    for (const [label, value] of info) {
      s1.box(L, y - 5, 150, 18, LIGHT);
      s1.text(label, L + 6, y, { face: 'bold', size: 10 });
      s1.text(value, L + 166, y, { size: 10 });
      y -= 22;
    }
    if (f.verificationUrl) {
      s1.text('Verify at:', L + 6, y, { face: 'bold', size: 10 });
      s1.text(f.verificationUrl, L + 166, y, { size: 10 });
      y -= 22;
    }
    y = s1.paragraph(
      'Samples were received at ambient temperature in sealed, intact containers and stored at -20 °C ' +
        'until analysis. The client is responsible for the representativeness of the sample. Results are ' +
        'reported on page 2 of this certificate.',
      L,
      y - 16,
      R - L,
      { size: 9 },
    );
    s1.text('Continued on page 2', R, 60, { face: 'italic', size: 8, align: 'right', color: GREY });

    // Page 2: the results.
    const s2 = new Sheet(doc.addPage([612, 792]), fonts);
    header(s2, 2);
    s2.text('Section 2 of 2: Results', L, 700, { face: 'bold', size: 12 });
    const cols = [L, 200, 300, 470];
    y = 672;
    ['Parameter', 'Method', 'Acceptance criteria', 'Result'].forEach((h, i) => {
      s2.text(h, cols[i] ?? 0, y, { face: 'bold', size: 10 });
    });
    s2.rule(L, y - 5, R, 0.8, PLUM);
    const rows: [string, string, string, string][] = [
      ['Appearance', 'Visual', 'White powder', 'Complies'],
      ['Assay (HPLC)', p.method, 'NLT 98.0 %', p.purity],
      ['Mass spectrometry', 'LC-MS (ESI+)', 'Consistent with theory', f.identity],
      ['Content', p.method, `90–110% of label claim (${f.labelClaim})`, f.quantity],
      ['Residual TFA', 'Ion chromatography', 'NMT 1.0 %', '0.3 %'],
    ];
    y -= 22;
    for (const row of rows) {
      row.forEach((c, i) => {
        s2.text(c, cols[i] ?? 0, y, { size: 10 });
      });
      y -= 20;
    }
    y = s2.paragraph(
      'Assay by reversed-phase HPLC (C18, 250 × 4.6 mm, 220 nm) against an in-house reference; result is ' +
        'area-normalised purity. Mass confirmed by electrospray LC-MS. NLT = not less than; NMT = not more than.',
      L,
      y - 12,
      R - L,
      { size: 8.5, color: GREY },
    );

    y -= 30;
    const sig: [string, string, string][] = [
      ['Performed by', 'J. Okafor', p.testDate],
      ['Reviewed by', 'M. Castellano', p.reported],
      ['Approved by', 'Dr. S. Whitcombe, QA', p.reported],
    ];
    sig.forEach(([role, name, date], i) => {
      const x = L + i * 170;
      s2.rule(x, y, x + 150, 0.5, GREY);
      s2.text(role, x, y - 12, { face: 'bold', size: 8.5 });
      s2.text(name, x, y - 24, { size: 8.5 });
      s2.text(date, x, y - 36, { size: 8.5, color: GREY });
    });
  },
};

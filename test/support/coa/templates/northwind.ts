import { rgb } from 'pdf-lib';
import { GREY, LIGHT, Sheet } from '../sheet.ts';
import type { CoaTemplate } from '../template.ts';

const NAVY = rgb(0.1, 0.2, 0.42);

/**
 * (a) A one-page sheet of `Label:` / value pairs in two columns (label and value are separate
 * runs), ISO dates, `Purity (HPLC)`, `Lot No.`, `Date tested`, a verification sentence in the
 * footer. Helvetica, US Letter.
 */
export const northwind: CoaTemplate = {
  id: 'northwind',
  description: 'two-column Label: value sheet, ISO dates, one page',
  lab: 'Northwind Analytical Laboratories',
  family: 'helvetica',
  dateStyle: 'iso',
  pages: 1,
  producer: 'SampleTrack LIMS 7.3 report engine',
  creator: 'SampleTrack LIMS',
  printPurity: (p) => `${p}%`,
  draw(doc, fonts, p) {
    const f = p.facts;
    const s = new Sheet(doc.addPage([612, 792]), fonts);
    const L = 54;
    const R = 558;

    // Letterhead: a logo-like mark (shapes only), the name, the address line.
    s.box(L, 716, 34, 34, NAVY);
    s.box(L + 8, 724, 18, 18, rgb(1, 1, 1));
    s.text(f.lab, L + 44, 736, { face: 'bold', size: 15, color: NAVY });
    s.text('4120 Harbor Point Dr., Suite 210 · San Diego, CA 92101 · +1 619 555 0142', L + 44, 722, {
      size: 7.5,
      color: GREY,
    });
    s.text('ISO/IEC 17025 accredited · Cert. 4471.02', R, 736, { size: 7.5, color: GREY, align: 'right' });
    s.rule(L, 706, R, 1.2, NAVY);

    s.text('CERTIFICATE OF ANALYSIS', 306, 680, { face: 'bold', size: 13, align: 'center' });
    s.text(`Report No.: NWA-R-${f.batch}`, R, 662, { size: 8, color: GREY, align: 'right' });

    const rows: [string, string, string, string][] = [
      ['Client:', f.client, 'Date received:', p.received],
      ['Product:', f.compound, 'Date tested:', p.testDate],
      ['Lot No.:', f.batch, 'Report date:', p.reported],
      ['Sample ID:', `S-${f.batch}-01`, 'Retest date:', p.retest],
      ['Quantity:', f.quantity, 'Label claim:', f.labelClaim],
    ];
    let y = 636;
    for (const [l1, v1, l2, v2] of rows) {
      s.text(l1, L, y, { face: 'bold' });
      s.text(v1, L + 92, y);
      s.text(l2, 320, y, { face: 'bold' });
      s.text(v2, 410, y);
      y -= 16;
    }

    y -= 10;
    s.box(L, y - 60, R - L, 70, LIGHT);
    s.text('Results', L + 8, y - 4, { face: 'bold', size: 10 });
    s.text('Purity (HPLC):', L + 8, y - 22, { face: 'bold' });
    s.text(p.purity, L + 100, y - 22, { face: 'bold' });
    s.text('Identity (LC-MS):', 320, y - 22, { face: 'bold' });
    s.text(f.identity, 410, y - 22);
    s.text('Method:', L + 8, y - 40, { face: 'bold' });
    s.text(`${p.method} (C18, 220 nm)`, L + 100, y - 40);
    s.text('Verification code:', 320, y - 40, { face: 'bold' });
    s.text(f.verificationKey, 410, y - 40);

    y -= 90;
    s.text('Method summary', L, y, { face: 'bold', size: 9 });
    y = s.paragraph(
      'Purity was determined by reverse-phase HPLC with UV detection at 220 nm (C18, 4.6 × 150 mm, 5 µm; ' +
        'gradient 5–60% acetonitrile in 0.1% TFA over 20 min) and is reported as area percent of the main ' +
        'peak. Identity was confirmed by LC-MS (ESI+): the observed [M+H]+ was within 0.5 Da of theory. ' +
        'Specification: purity ≥98.0%; content 90–110% of label claim.',
      L,
      y - 14,
      R - L,
    );

    y -= 20;
    s.text('Analyst: Dana Whitfield', L, y);
    s.text(`Date: ${p.reported}`, L, y - 12, { color: GREY });
    s.text('Reviewed by: Dr. Omar Reyes, QA Manager', 320, y);
    s.text(`Date: ${p.reported}`, 320, y - 12, { color: GREY });

    const verify = f.verificationUrl
      ? `Verify this certificate at ${f.verificationUrl} using code ${f.verificationKey}.`
      : 'To confirm this certificate, contact the laboratory and quote the verification code.';
    s.text(verify, L, 96, { size: 8 });
    s.paragraph(
      'This report relates only to the sample tested as received. It may not be reproduced except in full ' +
        'without the written approval of the laboratory. Results are not intended for human or veterinary use.',
      L,
      80,
      R - L,
      { size: 7, color: GREY, face: 'italic' },
    );
    s.text(`© 2026 ${f.lab}`, L, 40, { size: 7, color: GREY });
    s.text('Page 1 of 1', R, 40, { size: 7, color: GREY, align: 'right' });
  },
};

import { Sheet } from '../sheet.ts';
import type { CoaTemplate } from '../template.ts';

const pad = (label: string) => `${label} `.padEnd(24, '.');

/**
 * (e) A LIMS printout in Courier: upper-case labels with dot leaders in the same run as the value
 * (`LOT NUMBER ......... : BP-2231`), `12-Mar-2026` dates, a results table headed
 * `TEST | METHOD | LIMIT | FOUND`, and the verification as a sentence. US Letter.
 */
export const bluepoint: CoaTemplate = {
  id: 'bluepoint',
  description: 'Courier LIMS printout, dot leaders, "12-Mar-2026" dates, FOUND column',
  lab: 'Bluepoint Labs LLC',
  family: 'courier',
  dateStyle: 'dd-mon-yyyy',
  pages: 1,
  producer: 'LabTrack 8.1 print server',
  creator: 'LabTrack LIMS',
  printPurity: (p) => `${p.toFixed(2)} %`,
  draw(doc, fonts, p) {
    const f = p.facts;
    const s = new Sheet(doc.addPage([612, 792]), fonts);
    const L = 50;

    s.text(f.lab.toUpperCase(), L, 740, { face: 'bold', size: 12 });
    s.text('QUALITY CONTROL LABORATORY - TAMPA, FL 33602', L, 727, { size: 8 });
    s.text('RPT BPL-CA-03 REV 4', 562, 740, { size: 8, align: 'right' });
    s.text('='.repeat(86), L, 716, { size: 7.5 });
    s.text('CERTIFICATE OF ANALYSIS', 306, 700, { face: 'bold', size: 11, align: 'center' });

    const rows: [string, string][] = [
      ['CUSTOMER', f.client],
      ['SAMPLE NAME', f.compound],
      ['LOT NUMBER', f.batch],
      ['DATE RECEIVED', p.received],
      ['TEST DATE', p.testDate],
      ['DATE REPORTED', p.reported],
      ['LABEL CLAIM', f.labelClaim],
      ['AUTHENTICATION CODE', f.verificationKey],
    ];
    let y = 676;
    for (const [label, value] of rows) {
      s.text(`${pad(label)}: ${value}`, L, y, { size: 9 });
      y -= 13;
    }

    y -= 14;
    const cols = [L, 210, 320, 450];
    ['TEST', 'METHOD', 'LIMIT', 'FOUND'].forEach((h, i) => {
      s.text(h, cols[i] ?? 0, y, { face: 'bold', size: 9 });
    });
    s.text('-'.repeat(86), L, y - 9, { size: 7.5 });
    const results: [string, string, string, string][] = [
      ['PURITY', p.method, '>= 98.00 %', p.purity],
      ['IDENTITY', 'ESI-MS', 'MATCHES STD', f.identity.toUpperCase()],
      ['NET CONTENT', p.method, 'REPORT', f.quantity],
      ['BIOBURDEN', 'USP <61>', '< 100 CFU/G', '< 10 CFU/G'],
    ];
    y -= 22;
    for (const r of results) {
      r.forEach((c, i) => {
        s.text(c, cols[i] ?? 0, y, { size: 9 });
      });
      y -= 13;
    }

    y -= 16;
    y = s.paragraph(
      'NOTES: PURITY IS REPORTED AS PERCENT AREA AT 220 NM. THIS CERTIFICATE WAS GENERATED ELECTRONICALLY ' +
        'AND IS VALID WITHOUT SIGNATURE. CUSTOMER SAMPLES ARE RETAINED FOR 90 DAYS.',
      L,
      y,
      510,
      { size: 8 },
    );
    if (f.verificationUrl) {
      s.paragraph(
        `To verify this report, visit ${f.verificationUrl} and enter code ${f.verificationKey}.`,
        L,
        y - 8,
        510,
        { size: 8 },
      );
    }
    s.text(`ANALYST: T. NGUYEN   QA RELEASE: P. ADEYEMI   PRINTED ${p.reported}`, L, 60, { size: 8 });
    s.text('PAGE 1 OF 1', 562, 40, { size: 8, align: 'right' });
  },
};

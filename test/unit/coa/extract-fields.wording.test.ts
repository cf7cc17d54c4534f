import { describe, expect, it } from 'vitest';
import { extractFields } from '../../../src/core/coa/extract-fields.ts';
import { EMPTY_FIELDS, type PdfText, type TextLine } from '../../../src/core/coa/model.ts';

/**
 * Label wordings and traps on hand-placed text (the extractor is pure: positioned text in,
 * fields out). A page is a list of lines, top down, 14 pt apart; a line is cells as
 * `[text, x]` or `[text, x, font size]` (points), or a string for one cell at x = 50.
 */
type Cells = string | ([string, number] | [string, number, number])[];

function page(...lines: Cells[]): PdfText['pages'][number] {
  return {
    lines: lines.map(
      (l, i): TextLine => ({
        y: 760 - i * 14,
        cells: (typeof l === 'string' ? [[l, 50] as [string, number]] : l).map(([text, x, size]) => ({
          text,
          x,
          width: text.length * 5,
          ...(size === undefined ? {} : { size }),
        })),
      }),
    ),
  };
}

function doc(...pages: PdfText['pages']): PdfText {
  return {
    pages,
    pageCount: pages.length,
    metadata: { producer: null, creator: null, creationDate: null, modDate: null },
  };
}

const one = (...lines: Cells[]) => extractFields(doc(page(...lines)));

describe('batch labels', () => {
  it.each([
    'Lot: A-123',
    'Lot No.: A-123',
    'LOT NO: A-123',
    'Lot #: A-123',
    'Lot # A-123',
    'Lot number: A-123',
    'Batch: A-123',
    'Batch No. A-123',
    'BATCH#: A-123',
    'Batch/Lot No.: A-123',
    'Lot Nr. A-123',
    'Lot ID: A-123',
    '• Lot: A-123',
  ])('%s', (line) => {
    expect(one('Certificate of Analysis', line).batch).toBe('A-123');
  });

  it('a label cell followed by a value cell', () => {
    expect(
      one([
        ['Lot No.', 50],
        ['A-123', 150],
      ]).batch,
    ).toBe('A-123');
  });

  it('prose starting with the word is not a batch', () => {
    expect(
      one('Batch release is the responsibility of the client.', 'Lot size: 2000 vials').batch,
    ).toBeNull();
  });
});

describe('purity: the result, not the specification', () => {
  it.each([
    ['Purity: 99.2%', 99.2, '99.2%'],
    ['Purity (HPLC): 99.20 %', 99.2, '99.20%'],
    ['HPLC purity: 99.41% (area)', 99.41, '99.41%'],
    ['Purity by HPLC: 98,7 %', 98.7, '98.7%'],
    ['Assay: 100.4%', 100.4, '100.4%'],
    ['Chromatographic purity = 97.1% a/a', 97.1, '97.1%'],
    ['Purity (%): 99.1', 99.1, '99.1%'],
  ])('%s', (line, purity, purityText) => {
    const f = one(line);
    expect(f.purity).toBe(purity);
    expect(f.purityText).toBe(purityText);
  });

  it('in a row without a header, the last percentage after the specification', () => {
    const f = one([
      ['HPLC purity', 50],
      ['HPLC-UV', 200],
      ['≥98.0%', 300],
      ['99.41%', 450],
    ]);
    expect(f.purityText).toBe('99.41%');
    expect(f.method).toBe('HPLC-UV');
  });

  it('in a table, the Result column even when the specification comes last', () => {
    const f = one(
      [
        ['Test', 50],
        ['Result', 200],
        ['Method', 300],
        ['Specification', 420],
      ],
      [
        ['Purity', 50],
        ['99.41%', 200],
        ['RP-HPLC', 300],
        ['NLT 98%', 420],
      ],
    );
    expect(f.purityText).toBe('99.41%');
    expect(f.method).toBe('RP-HPLC');
  });

  it.each([
    'Purity: ≥98.0%',
    'Purity: >= 98 %',
    'Purity: NLT 98.0%',
    'Purity: 98.0–102.0%',
    'Purity: min. 98%',
    'Purity is reported as area percent of the main peak; specification ≥98.0%.',
    'Purity was 99% of what we hoped.',
  ])('%s is no result', (line) => {
    expect(one(line).purity).toBeNull();
  });
});

describe('test date: the date tested beats the other dates', () => {
  it('tested over reported over received, whatever the order on the page', () => {
    const f = one(
      'Date received: 2026-03-01',
      'Report date: 2026-03-20',
      'Date tested: 2026-03-12',
      'Date: 2026-03-21',
    );
    expect(f.testDate?.iso).toBe('2026-03-12');
  });

  it.each([
    'Date tested: 12 Mar 2026',
    'Test date: 12 Mar 2026',
    'Testing date: 12 Mar 2026',
    'Analysis date: 12 Mar 2026',
    'Date of analysis: 12 Mar 2026',
    'Date analyzed: 12 Mar 2026',
    'Tested on 12 Mar 2026',
    'Analysed on: 12 Mar 2026',
  ])('%s', (line) => {
    expect(one('Report date: 2026-04-01', line, 'Received: 2026-03-01').testDate?.iso).toBe('2026-03-12');
  });

  it('falls back to the report date, then a bare date, then the received date', () => {
    expect(one('Received: 2026-03-01', 'Issued: 2026-03-20').testDate?.iso).toBe('2026-03-20');
    expect(one('Received: 2026-03-01', 'Date: 2026-03-21').testDate?.iso).toBe('2026-03-21');
    expect(one('Date received: 2026-03-01').testDate?.iso).toBe('2026-03-01');
  });

  it('never takes an expiry, retest or manufacturing date', () => {
    expect(
      one('Expiry date: 2028-03-01', 'Retest date: 2027-03-01', 'Mfg. date: 2026-01-01', 'Lot: A-1').testDate,
    ).toBeNull();
  });
});

describe('labels above values', () => {
  it('matches each value to the label over it', () => {
    const f = one(
      [
        ['Batch #', 50],
        ['Compound', 170],
        ['Test date', 300],
        ['Appearance', 430],
      ],
      [
        ['Q-77', 50],
        ['GHK-Cu', 170],
        ['12.03.2026', 300],
        ['Blue powder', 430],
      ],
    );
    expect(f.batch).toBe('Q-77');
    expect(f.compound).toBe('GHK-Cu');
    expect(f.testDate).toEqual({ iso: '2026-03-12', text: '12.03.2026', ambiguous: true });
  });
});

describe('several pairs in one cell, and two pages', () => {
  it('splits Label: value pairs run together', () => {
    const f = one('Sample: BPC-157 Lot No.: A-1 Date tested: 2026-03-12 Expiry date: 2028-01-01');
    expect(f.compound).toBe('BPC-157');
    expect(f.batch).toBe('A-1');
    expect(f.testDate?.iso).toBe('2026-03-12');
  });

  it('reads fields from either page', () => {
    const f = extractFields(doc(page('Client: Helix Research Supply', 'Lot: H-9'), page('Purity: 99.9%')));
    expect(f).toMatchObject({ client: 'Helix Research Supply', batch: 'H-9', purity: 99.9 });
  });
});

describe('compound', () => {
  it.each([
    ['Sample: BPC157', 'BPC157'],
    ['Sample name: bpc-157', 'bpc-157'],
    ['Product: TB-500 (Thymosin Beta-4)', 'TB-500 (Thymosin Beta-4)'],
    ['Compound: BPC-157 Acetate', 'BPC-157 Acetate'],
    ['Material: Semaglutide 5mg', 'Semaglutide'],
    ['Product name: BPC-157 (10 mg)', 'BPC-157'],
    ['Peptide: Ipamorelin - 5 mg/vial', 'Ipamorelin'],
  ])('%s gives %s', (line, compound) => {
    expect(one(line).compound).toBe(compound);
  });

  it('is not read from sample IDs, descriptions or prose', () => {
    expect(
      one('Sample ID: S-2026-0312', 'Sample description: white powder', 'Samples were stored at -20 °C.')
        .compound,
    ).toBeNull();
  });
});

describe('lab', () => {
  it('a Laboratory label beats the letterhead', () => {
    expect(one('Quality Testing Labs', 'Laboratory: Northwind Analytical Laboratories', 'Lot: A-1').lab).toBe(
      'Northwind Analytical Laboratories',
    );
  });

  it('"Tested by" names the lab only when it names an organisation, not a person', () => {
    expect(one('Tested by: Dr. Jane Moreau', 'Lot: A-1').lab).toBeNull();
    expect(one('Tested by: Orbis Analytical Inc.', 'Lot: A-1').lab).toBe('Orbis Analytical Inc.');
  });

  it('from the letterhead: the lab word, not the accreditation line', () => {
    expect(
      one(
        [
          ['ISO/IEC 17025 accredited laboratory', 50],
          ['Certificate of Analysis', 350],
        ],
        'Halcyon Testing Services',
        'Lot: A-1',
      ).lab,
    ).toBe('Halcyon Testing Services');
  });

  it('the letterhead name in large type, not a tagline in small type that has a lab word', () => {
    expect(
      one([['Halcyon Bioscience', 50, 16]], [['Independent peptide testing laboratory', 50, 8]], 'Lot: A-1')
        .lab,
    ).toBe('Halcyon Bioscience');
    expect(
      one([['Orbis Analytical', 50, 16]], [['Independent peptide testing', 50, 8]], 'Lot: A-1').lab,
    ).toBe('Orbis Analytical');
  });

  it('from a copyright line, then the first line when nothing names a lab', () => {
    expect(
      one('CERTIFICATE OF ANALYSIS', 'Lot: A-1', '© 2026 Orbis Analytical Inc. All rights reserved.').lab,
    ).toBe('Orbis Analytical Inc');
    expect(one('Halcyon Bioscience', 'Certificate of Analysis', 'Lot: A-1').lab).toBe('Halcyon Bioscience');
  });
});

describe('client, identity, quantity, verification', () => {
  it.each([
    'Client: Aurora Peptide Works',
    'Customer: Aurora Peptide Works',
    'Submitted by: Aurora Peptide Works',
    'Requested by: Aurora Peptide Works',
  ])('%s', (line) => {
    expect(one(line, 'Client ID: 4471').client).toBe('Aurora Peptide Works');
  });

  it('prose about clients is not a client', () => {
    expect(one('Client samples are retained for 30 days.', 'Lot: A-1').client).toBeNull();
  });

  it.each([
    ['Identity: Conforms', 'Conforms'],
    ['Identity (MS): Pass', 'Pass'],
    ['Identification: Does not conform (m/z 1421.9)', 'Does not conform'],
    ['Mass confirmation: Confirmed', 'Confirmed'],
  ])('%s', (line, identity) => {
    expect(one(line).identity).toBe(identity);
  });

  it('quantity with its label claim in one value, or separately', () => {
    expect(one('Content: 10.13 mg (label claim 10 mg)')).toMatchObject({
      quantity: '10.13 mg',
      labelClaim: '10 mg',
    });
    expect(one('Net content: 4,98 mg vs 5 mg')).toMatchObject({ quantity: '4.98 mg', labelClaim: '5 mg' });
    expect(one('Quantity: 9.6 mg', 'Label claim: 10 mg')).toMatchObject({
      quantity: '9.6 mg',
      labelClaim: '10 mg',
    });
    expect(one('Water content: 4.2%', 'Quantity submitted 2 vials').quantity).toBeNull();
  });

  it('verification key and URL from labels or a sentence wrapped over lines', () => {
    expect(one('Verification code: NWA-7K2P-91QX', 'Verification URL: https://v.example/coa')).toMatchObject({
      verificationKey: 'NWA-7K2P-91QX',
      verificationUrl: 'https://v.example/coa',
    });
    expect(
      one('Lot: A-1', 'To verify this report, visit https://check.example/r and', 'enter code QX-2231.'),
    ).toMatchObject({ verificationKey: 'QX-2231', verificationUrl: 'https://check.example/r' });
    expect(
      one('Lot: A-1', 'www.northwind-labs.example · info@northwind-labs.example').verificationUrl,
    ).toBeNull();
  });
});

describe('nothing recognisable', () => {
  it('a letter or an empty page gives EMPTY_FIELDS', () => {
    expect(one('Acme Peptides', 'Dear customer,', 'thank you for your order of 12 March 2026.')).toEqual(
      EMPTY_FIELDS,
    );
    expect(extractFields(doc({ lines: [] }))).toEqual(EMPTY_FIELDS);
  });
});

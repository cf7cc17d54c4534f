import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPdfText } from '../../../src/adapters/pdf/read-pdf.ts';
import { extractFields } from '../../../src/core/coa/extract-fields.ts';
import type { ExtractedFields, PdfText } from '../../../src/core/coa/model.ts';
import {
  ALL_TEMPLATES,
  type CoaFacts,
  type CoaTemplate,
  type DateStyle,
  isoOf,
  makeCoa,
  renderCoa,
  TEMPLATES,
} from '../../support/coa/index.ts';

const LIMITS = { maxPages: 20, maxInflatedBytes: 64 * 2 ** 20 };

async function textOf(bytes: Uint8Array): Promise<PdfText> {
  const r = await readPdfText(bytes.slice(), LIMITS);
  if (!r.ok) throw new Error(`unreadable fixture: ${r.reason}`);
  return r.text;
}

/** The style a template's test date is printed in is ambiguous when day ≤ 12 and day ≠ month. */
function ambiguousIn(style: DateStyle, iso: string): boolean {
  const [, m, d] = iso.split('-').map(Number) as [number, number, number];
  return (style === 'us-slash' || style === 'dotted') && d <= 12 && d !== m;
}

/** What each template must yield for `facts`, written out independently of the extractor. */
function expected(
  t: CoaTemplate,
  facts: CoaFacts,
  printed: { testDate: string; purity: string },
): ExtractedFields {
  const upper = t.id === 'bluepoint';
  const iso = isoOf(facts.testDate);
  return {
    lab: upper ? facts.lab.toUpperCase() : facts.lab,
    batch: facts.batch,
    compound: facts.compound,
    testDate: { iso, text: printed.testDate, ambiguous: ambiguousIn(t.dateStyle, iso) },
    method: facts.method,
    purity: Number(printed.purity.replace('%', '')),
    purityText: printed.purity.replace(/\s/g, ''),
    quantity: facts.quantity,
    labelClaim: facts.labelClaim,
    identity: upper ? facts.identity.toUpperCase() : facts.identity,
    client: facts.client,
    verificationKey: facts.verificationKey,
    verificationUrl: facts.verificationUrl ?? null,
  };
}

const FACT_SETS: Record<string, Partial<CoaFacts>> = {
  'sample facts (ambiguous slash day 03/12)': {},
  'BPC157, unambiguous 13th, HPLC, Pass, no URL': {
    compound: 'BPC157',
    batch: 'BN-24-0031',
    testDate: '2026-03-13',
    method: 'HPLC',
    purity: 98.05,
    identity: 'Pass',
    quantity: '5.02 mg',
    labelClaim: '5 mg',
    client: 'Helix Research Supply',
    verificationKey: 'HX-55QW-0912',
    verificationUrl: null,
  },
  'TB-500 (Thymosin Beta-4), purity above 100, LC-MS, December': {
    compound: 'TB-500 (Thymosin Beta-4)',
    batch: 'TB5-2611/A',
    testDate: '2025-12-05',
    method: 'LC-MS',
    purity: 101.3,
    quantity: '2.1 mg',
    labelClaim: '2 mg',
    client: 'Summit Compounds LLC',
    verificationKey: 'SC2611XQ',
    verificationUrl: 'https://labcheck.example/v?c=SC-2611',
  },
  'bpc-157, 1 Jan (day equals month), low purity': {
    compound: 'bpc-157',
    batch: 'L0T-7',
    testDate: '2026-01-01',
    purity: 87.5,
    quantity: '9.61 mg',
    client: 'Vantage Bio Labs',
  },
  'a lot number that starts with LOT (demo data shape)': {
    batch: 'LOT 5673',
    testDate: '2026-02-17',
  },
  'a lot number that starts with batch and ends in words (demo data shape)': {
    compound: 'Tirzepatide',
    batch: 'batch 183 tirz',
    testDate: '2026-04-22',
  },
  'BPC-157 Acetate, end of November': {
    compound: 'BPC-157 Acetate',
    batch: '240117',
    testDate: '2026-11-30',
    purity: 99.94,
    identity: 'Conforms',
    quantity: '10.4 mg',
  },
};

describe('extractFields on generated CoAs: every field, every template', () => {
  for (const t of ALL_TEMPLATES) {
    describe(`${t.id}: ${t.description}`, () => {
      for (const [name, over] of Object.entries(FACT_SETS)) {
        it(name, async () => {
          const { bytes, printed } = await renderCoa(t, over);
          const text = await textOf(bytes);
          expect(text.pageCount).toBe(t.pages);
          expect(extractFields(text)).toEqual(expected(t, printed.facts, printed));
        });
      }
    });
  }
});

describe('extractFields: dates printed in other styles', () => {
  it.each<[DateStyle, string, boolean]>([
    ['iso', '2026-03-12', false],
    ['day-mon-year', '12 Mar 2026', false],
    ['dd-mon-yyyy', '12-Mar-2026', false],
    ['month-day-year', 'March 12, 2026', false],
    ['us-slash', '03/12/2026', true],
    ['dotted', '12.03.2026', true],
  ])('%s: %s', async (style, text, ambiguous) => {
    for (const t of [TEMPLATES.northwind, TEMPLATES.kovalent]) {
      const bytes = await makeCoa(t, { testDate: '2026-03-12' }, { dateStyle: style });
      const f = extractFields(await textOf(bytes));
      expect(f.testDate).toEqual({ iso: '2026-03-12', text, ambiguous });
    }
  });

  it('a lab printing day-first slashes with an unambiguous day is read right', async () => {
    // 25/03/2026 can only be 25 March; the rule is month first only when that is possible.
    const bytes = await makeCoa(TEMPLATES.halcyon, { testDate: '2026-03-25' }, { dateStyle: 'us-slash' });
    const f = extractFields(await textOf(bytes));
    expect(f.testDate).toEqual({ iso: '2026-03-25', text: '03/25/2026', ambiguous: false });
  });
});

describe('extractFields: any fact set round-trips through any template (property)', () => {
  const facts = fc.record({
    lab: fc.constantFrom(
      'Northwind Analytical Laboratories',
      'Orbis Analytical Inc.',
      'Q Labs',
      // No laboratory word and no company suffix: found as the letterhead's largest type.
      'Halcyon Bioscience',
      'Stratford Chemical Services',
    ),
    batch: fc.stringMatching(/^[A-Z]{1,4}-?[0-9]{2,6}(?:-[A-Z0-9]{1,3})?$/),
    compound: fc.constantFrom(
      'BPC-157',
      'BPC157',
      'bpc-157',
      'TB-500 (Thymosin Beta-4)',
      'BPC-157 Acetate',
      'Semaglutide',
      'GHK-Cu',
      'CJC-1295 no DAC',
      'Ipamorelin',
    ),
    testDate: fc
      .date({
        min: new Date('2021-01-01T00:00:00Z'),
        max: new Date('2027-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10)),
    method: fc.constantFrom('HPLC', 'HPLC-UV', 'LC-MS', 'UPLC'),
    purity: fc.integer({ min: 5000, max: 10450 }).map((n) => n / 100),
    quantity: fc.integer({ min: 50, max: 2200 }).map((n) => `${(n / 100).toFixed(2)} mg`),
    labelClaim: fc.constantFrom('2 mg', '5 mg', '10 mg', '20 mg'),
    identity: fc.constantFrom('Conforms', 'Pass', 'Does not conform', 'Fail'),
    client: fc.constantFrom('Aurora Peptide Works', 'Helix Research Supply', 'Nordic Peptides AB', 'Q. Labs'),
    verificationKey: fc.stringMatching(/^[A-Z]{2,4}-[0-9A-Z]{4}-[0-9]{2,4}$/),
    verificationUrl: fc.option(
      fc.constantFrom('https://verify.example.org/coa', 'https://qr.labcheck.example/x/1'),
      {
        nil: null,
      },
    ),
  });

  it('extracts exactly the facts printed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ALL_TEMPLATES), facts, async (t, f) => {
        const { bytes, printed } = await renderCoa(t, f);
        expect(extractFields(await textOf(bytes))).toEqual(expected(t, printed.facts, printed));
      }),
      { numRuns: 40 },
    );
  });
});

describe('extractFields: speed', () => {
  it('reads a two-page CoA in a few milliseconds', async () => {
    const text = await textOf(await makeCoa(TEMPLATES.halcyon));
    for (let i = 0; i < 20; i++) extractFields(text);
    const runs = 200;
    const start = performance.now();
    for (let i = 0; i < runs; i++) extractFields(text);
    const each = (performance.now() - start) / runs;
    // Typically well under 1 ms; the bound leaves room for a busy machine.
    expect(each).toBeLessThan(10);
  });

  it('stays fast on hostile text: 20 pages of 600 lines of 40 long trap cells', () => {
    const traps = [
      `Content: ${'1'.repeat(400)}`,
      'verif '.repeat(80),
      `verify at http://${'a'.repeat(400)}`,
      'Lot: Date: Purity: Client: '.repeat(20),
      `Sample: ${'5'.repeat(150)}x`,
      'Purity',
      'mar 1 '.repeat(60),
    ];
    for (const trap of traps) {
      const text: PdfText = {
        pageCount: 20,
        metadata: { producer: null, creator: null, creationDate: null, modDate: null },
        pages: Array.from({ length: 20 }, () => ({
          lines: Array.from({ length: 600 }, (_, l) => ({
            y: 800 - l,
            cells: Array.from({ length: 40 }, (_, c) => ({ text: trap, x: c * 10, width: 5 })),
          })),
        })),
      };
      const start = performance.now();
      extractFields(text);
      // Measured at 1-70 ms each; quadratic regexes or unbounded reading would take seconds.
      expect(performance.now() - start).toBeLessThan(1000);
    }
  });
});

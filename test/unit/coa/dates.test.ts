import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findStatedDate, parseStatedDate } from '../../../src/core/coa/dates.ts';
import { type DateStyle, formatDate } from '../../support/coa/facts.ts';

const read = (text: string) => {
  const d = parseStatedDate(text);
  return d && { iso: d.iso, ambiguous: d.ambiguous };
};

describe('parseStatedDate: the shapes CoAs print', () => {
  it.each([
    ['2026-03-12', '2026-03-12'],
    ['2026/03/12', '2026-03-12'],
    ['12 Mar 2026', '2026-03-12'],
    ['12 March 2026', '2026-03-12'],
    ['12th March 2026', '2026-03-12'],
    ['12-Mar-2026', '2026-03-12'],
    ['12-MAR-26', '2026-03-12'],
    ['March 12, 2026', '2026-03-12'],
    ['Mar. 12 2026', '2026-03-12'],
    ['Thursday, March 12th, 2026', '2026-03-12'],
    ['Sept 3, 2026', '2026-09-03'],
    ['2026-03-12T14:05:00Z', '2026-03-12'],
    ['2026-03-12 14:05', '2026-03-12'],
    ['(12 Mar 2026)', '2026-03-12'],
  ])('%s is %s and not ambiguous', (text, iso) => {
    expect(read(text)).toEqual({ iso, ambiguous: false });
  });

  it('reads slash dates month first (US), and marks them ambiguous when both numbers could be the month', () => {
    expect(read('03/12/2026')).toEqual({ iso: '2026-03-12', ambiguous: true });
    expect(read('12/03/2026')).toEqual({ iso: '2026-12-03', ambiguous: true });
    expect(read('03/13/2026')).toEqual({ iso: '2026-03-13', ambiguous: false });
  });

  it('reads a slash date day first when the first number cannot be a month', () => {
    expect(read('13/03/2026')).toEqual({ iso: '2026-03-13', ambiguous: false });
    expect(read('31/12/2025')).toEqual({ iso: '2025-12-31', ambiguous: false });
  });

  it('reads dotted and dashed numeric dates day first (European), ambiguous under the same condition', () => {
    expect(read('12.03.2026')).toEqual({ iso: '2026-03-12', ambiguous: true });
    expect(read('12-03-2026')).toEqual({ iso: '2026-03-12', ambiguous: true });
    expect(read('25.03.2026')).toEqual({ iso: '2026-03-25', ambiguous: false });
    // The second number cannot be a month: month first is the only reading.
    expect(read('03.25.2026')).toEqual({ iso: '2026-03-25', ambiguous: false });
  });

  it('does not call equal day and month ambiguous: both readings are the same day', () => {
    expect(read('05/05/2026')).toEqual({ iso: '2026-05-05', ambiguous: false });
    expect(read('05.05.2026')).toEqual({ iso: '2026-05-05', ambiguous: false });
  });

  it('reads two-digit years as 20yy', () => {
    expect(read('03/13/26')).toEqual({ iso: '2026-03-13', ambiguous: false });
    expect(read('25.03.99')).toEqual({ iso: '2099-03-25', ambiguous: false });
    expect(read('12 Mar 26')).toEqual({ iso: '2026-03-12', ambiguous: false });
  });

  it.each([
    '31 Feb 2026',
    '2026-02-30',
    '29.02.2026',
    '2026-13-01',
    '00/12/2026',
    '13/13/2026',
    '31/04/2026',
    '2026-04-31',
    '1 Foo 2026',
    '12 Mar 1850',
    'Lot 2026-03',
    '99.2%',
    '',
  ])('%j is not a date', (text) => {
    expect(parseStatedDate(text)).toBeNull();
  });

  it('accepts 29 Feb in a leap year only', () => {
    expect(read('29 Feb 2028')).toEqual({ iso: '2028-02-29', ambiguous: false });
    expect(read('29 Feb 2027')).toBeNull();
  });

  it('parseStatedDate wants the text to be the date; findStatedDate finds the first one in prose', () => {
    expect(parseStatedDate('12 Mar 2026 (received 10 Mar 2026)')).toBeNull();
    expect(parseStatedDate('tested 12 Mar 2026')).toBeNull();
    expect(findStatedDate('Tested on 12 Mar 2026, reported 2026-04-01')).toEqual({
      iso: '2026-03-12',
      text: '12 Mar 2026',
      ambiguous: false,
    });
    // An impossible date is skipped for the next real one.
    expect(findStatedDate('31 Feb 2026 then 1 Mar 2026')?.iso).toBe('2026-03-01');
  });

  it('keeps the text as printed', () => {
    expect(parseStatedDate('  12-Mar-2026 ')?.text).toBe('12-Mar-2026');
    expect(parseStatedDate('03/12/2026')?.text).toBe('03/12/2026');
  });

  it('does not read a number that continues past the date', () => {
    expect(findStatedDate('ref 112/03/2026')).toBeNull();
    expect(findStatedDate('2026-03-121')).toBeNull();
  });
});

describe('parseStatedDate: every day in every printed style (property)', () => {
  const styles: DateStyle[] = ['iso', 'day-mon-year', 'dd-mon-yyyy', 'month-day-year', 'us-slash', 'dotted'];
  it('reads back the day that was printed, ambiguous exactly when day and month could swap', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1990-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...styles),
        (date, style) => {
          const iso = date.toISOString().slice(0, 10);
          const d = parseStatedDate(formatDate(date, style));
          const day = date.getUTCDate();
          const month = date.getUTCMonth() + 1;
          const numeric = style === 'us-slash' || style === 'dotted';
          expect(d?.iso).toBe(iso);
          expect(d?.ambiguous).toBe(numeric && day <= 12 && day !== month);
        },
      ),
      { numRuns: 500 },
    );
  });
});

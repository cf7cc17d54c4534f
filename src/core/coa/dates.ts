import type { StatedDate } from './model.ts';

/**
 * Dates as certificates of analysis print them. Accepted shapes (case-insensitive, an optional
 * weekday in front, an optional time after, ordinals `12th` allowed):
 *
 *   2026-03-12, 2026/03/12, 2026.03.12     year first: always year, month, day
 *   12 Mar 2026, 12 March 2026, 12-Mar-2026, 12/Mar/26   (English month names only)
 *   March 12, 2026, Mar. 12 2026
 *   03/12/2026, 03/12/26                   slash: see SLASH_AND_DOT_RULE
 *   12.03.2026, 12-03-2026                 dot or dash: see SLASH_AND_DOT_RULE
 *
 * Impossible days (31 Feb, month 13, day 0) are not dates: the text is not read as one.
 */

/**
 * The ambiguity rule for all-numeric day-month-year dates, as published in docs/methodology.md:
 * - a slash date (`03/12/2026`) is month first (US), unless the first number is above 12, in
 *   which case it can only be day first (`13/03/2026` is 13 March);
 * - a dotted or dashed date (`12.03.2026`, `12-03-2026`) is day first (European), unless the
 *   second number is above 12, in which case it can only be month first;
 * - whenever both numbers are 12 or less and differ, the other reading is also a real day: the
 *   result is marked `ambiguous: true` (the decision rules may then accept either reading). Equal
 *   numbers (`05/05/2026`) read the same both ways and are not ambiguous.
 */
export const SLASH_AND_DOT_RULE =
  'slash dates are month first unless the first number is above 12; dotted and dashed dates are day first unless the second number is above 12; both numbers 12 or less and different: ambiguous';

/**
 * Two-digit years are this century: `26` is 2026, `99` is 2099 (a research-peptide CoA from the
 * 1990s is not plausible; a 2099 date is read as printed and the decision rules see a future
 * date). Four-digit years outside 1900..2199 are not read as dates.
 */
export const TWO_DIGIT_YEAR_BASE = 2000;

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4}|\\d{2})';
// A number must not continue the date on either side (`112/03/2026`, `2026-03-121`).
const L = '(?<![\\d.])';
const R = '(?![\\d])';

const PATTERNS: readonly { re: RegExp; read: (m: RegExpExecArray) => Reading | null }[] = [
  {
    re: new RegExp(`${L}(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})${R}`, 'gi'),
    read: (m) => ({ y: Number(m[1]), month: Number(m[3]), day: Number(m[4]), ambiguous: false }),
  },
  {
    re: new RegExp(`${L}${DAY}[\\s\\-/.]*${MONTH}\\.?[\\s\\-/.,]*${YEAR}${R}`, 'gi'),
    read: (m) => ({ y: year(m[3]), month: MONTHS[lower(m[2])] ?? 0, day: Number(m[1]), ambiguous: false }),
  },
  {
    re: new RegExp(`\\b${MONTH}\\.?[\\s\\-/.]*${DAY}(?:\\s*,\\s*|[\\s\\-/.]+)${YEAR}${R}`, 'gi'),
    read: (m) => ({ y: year(m[3]), month: MONTHS[lower(m[1])] ?? 0, day: Number(m[2]), ambiguous: false }),
  },
  {
    re: new RegExp(`${L}(\\d{1,2})([/.\\-])(\\d{1,2})\\2${YEAR}${R}`, 'g'),
    read: (m) => numericReading(Number(m[1]), Number(m[3]), m[2] === '/', year(m[4])),
  },
];

// What may surround a date in a cell read as one date: brackets, punctuation, a weekday, a time.
const AROUND_DATE = new RegExp(
  [
    '^[\\s,;:()[\\]]*',
    '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?,?)?',
    '[\\s,;:()[\\]]*',
    '(?:(?:t|at\\s+)?\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:\\s*[ap]\\.?m\\.?)?(?:\\s*(?:utc|gmt|z|[+-]\\d{2}:?\\d{2}))?)?',
    '[\\s,;:()[\\]]*$',
  ].join(''),
  'i',
);

interface Reading {
  y: number | null;
  month: number;
  day: number;
  ambiguous: boolean;
}

/** The first date stated in `text`, or null. `text` in the result is the date as printed. */
export function findStatedDate(text: string): StatedDate | null {
  let best: { at: number; date: StatedDate } | null = null;
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      if (best && best.at <= m.index) break;
      const r = p.read(m as RegExpExecArray);
      const iso = r ? isoDay(r) : null;
      if (!r || !iso) continue;
      best = { at: m.index, date: { iso, text: m[0].trim(), ambiguous: r.ambiguous } };
      break;
    }
  }
  return best?.date ?? null;
}

/** `text` read as one date (brackets, a weekday and a time of day may surround it), or null. */
export function parseStatedDate(text: string): StatedDate | null {
  const found = findStatedDate(text);
  if (!found) return null;
  return AROUND_DATE.test(text.replace(found.text, ' ')) ? found : null;
}

function numericReading(first: number, second: number, slash: boolean, y: number | null): Reading | null {
  // The documented default: month first for slashes, day first for dots and dashes.
  let [month, day] = slash ? [first, second] : [second, first];
  if (month > 12 && day <= 12) [month, day] = [day, month];
  const ambiguous = first <= 12 && second <= 12 && first !== second;
  return { y, month, day, ambiguous };
}

function year(text: string | undefined): number | null {
  if (text === undefined) return null;
  return text.length === 2 ? TWO_DIGIT_YEAR_BASE + Number(text) : Number(text);
}

function lower(s: string | undefined): string {
  return (s ?? '').toLowerCase();
}

function isoDay(r: Reading): string | null {
  const { y, month, day } = r;
  if (y === null || y < 1900 || y > 2199) return null;
  if (month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(y, month, 0)).getUTCDate();
  if (day > last) return null;
  return `${y}-${pad(month)}-${pad(day)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

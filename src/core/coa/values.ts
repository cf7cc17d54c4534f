/**
 * Readers for the values a CoA states next to its labels. Each takes the text found where a value
 * should be and answers the value as this module normalises it, or null when the text is not a
 * value of that kind (so a label followed by prose, or by the specification, yields nothing).
 */

/**
 * Specifications and limits, not results: `≥98.0%`, `>= 98 %`, `NLT 98.0%`, `min. 98%`,
 * `98.0–102.0%`, `10 mg ± 10%`, `Report result`, `Conforms to reference`.
 */
export function isSpecification(text: string): boolean {
  const t = text.trim().toLowerCase();
  return (
    /^(?:[≥≤<>=]|=>|=<|nlt\b|nmt\b|min\b|max\b|minimum\b|maximum\b|not (?:less|more) than|at least|no (?:less|more) than|limit\b|spec\b|report\b|to be reported|must\b|should\b|shall\b)/.test(
      t,
    ) ||
    /\d\s*%?\s*(?:[-–—]|to)\s*\d[\d.,]*\s*%/.test(t) ||
    /±|\+\/-/.test(t) ||
    /\bto (?:reference|standard|structure|theoretical)\b/.test(t) ||
    /\bof (?:label|claim|theoretical)\b/.test(t)
  );
}

export interface Percent {
  value: number;
  /** The number as printed (decimal comma read as a point) followed by `%`, without a space. */
  text: string;
}

/**
 * A purity result: a percentage at the start of the text, optionally followed by a qualifier such
 * as `(area)`, `a/a` or `(HPLC, 220 nm)`. Normalisation of the printed text: surrounding space and
 * the space before `%` are dropped, a decimal comma becomes a point, the digits are kept as printed
 * (`99.20 %` gives `99.20%`: the precision the lab printed is part of what it stated). Values above
 * 100 are kept as read. With `bare`, a number without `%` is accepted (a column headed `%`).
 */
export function readPercent(text: string, bare = false): Percent | null {
  if (isSpecification(text)) return null;
  const m = /^\s*(\d{1,3}(?:[.,]\d{1,4})?)(?![\d.,])\s*(%?)(.*)$/.exec(text);
  if (!m) return null;
  const [, digits = '', sign, tail = ''] = m;
  if (sign === '' && !bare) return null;
  // A second number after the first is a range or another value, not a qualifier.
  if (/^\s*(?:[-–—/]|to\b)\s*\d/.test(tail) || /%/.test(tail)) return null;
  if (/^\s*[a-z]/i.test(tail) && !/^\s*(?:a\/a|w\/w|area|\(|by\b|hplc|uplc|at\b)/i.test(tail)) return null;
  const printed = digits.replace(',', '.');
  const value = Number(printed);
  if (!Number.isFinite(value)) return null;
  return { value, text: `${printed}%` };
}

// Starts only where a number starts, so a long run of digits costs linear time, not quadratic.
const MASS = /(?<![\d.,])(\d+(?:[.,]\d+)?)\s*(mg|mcg|µg|μg|ug|g|iu)(?![a-z])/gi;

/** Masses stated in the text, normalised to `10.13 mg` (number as printed, one space, unit). */
export function readMasses(text: string): string[] {
  return [...text.matchAll(MASS)].map((m) => `${(m[1] ?? '').replace(',', '.')} ${unit(m[2] ?? '')}`);
}

function unit(u: string): string {
  const l = u.toLowerCase();
  if (l === 'iu') return 'IU';
  if (l === 'μg' || l === 'ug') return 'µg';
  return l;
}

export interface Quantity {
  quantity: string;
  labelClaim: string | null;
}

/**
 * A measured content, possibly with the label claim in the same text: `10.13 mg`,
 * `10.13 mg (label claim 10 mg)`, `10.13 mg vs 10 mg`, `10.13 mg / 10 mg labelled`,
 * `10.13 mg of 10 mg`.
 */
export function readQuantity(text: string): Quantity | null {
  if (isSpecification(text)) return null;
  const t = text.trim();
  const masses = readMasses(t);
  const [first, second] = masses;
  if (!first || !new RegExp(`^${MASS.source}`, 'i').test(t)) return null;
  const claim =
    second !== undefined &&
    /\b(?:vs\.?|versus|of|label|labell?ed|claim|claimed|declared|nominal)\b|\//i.test(t)
      ? second
      : null;
  return { quantity: first, labelClaim: claim };
}

/** A label claim: the text is a mass, possibly with words around it (`10 mg per vial`). */
export function readLabelClaim(text: string): string | null {
  const masses = readMasses(text);
  return masses.length === 1 ? (masses[0] ?? null) : null;
}

const VERDICT =
  /^(?:does not conform|do(?:es)? not comply|not conform(?:ing)?|non-?conform(?:ing|ant|s)?|conform(?:s|ing|ed)?|complies|compliant|pass(?:es|ed)?|fail(?:s|ed)?|confirmed|not confirmed|positive|negative|consistent|inconsistent|identified|not identified|matches|does not match|meets (?:specification|requirements)|ok)(?![a-z])/i;

/** An identity verdict as printed (`Conforms`, `Pass`, `Does not conform`), without its detail. */
export function readIdentity(text: string): string | null {
  const t = text.trim();
  if (isSpecification(t)) return null;
  const m = VERDICT.exec(t);
  return m ? m[0] : null;
}

const METHOD =
  /(?<![a-z0-9])(?:rp-?)?(?:u?hplc|uplc|lc|gc|ce|ms|esi|maldi)(?:[-/ ](?:uv|dad|pda|elsd|cad|ms|tof))*(?![a-z0-9])/i;

/**
 * The analytical method named in the text, as printed (`HPLC`, `HPLC-UV`, `LC-MS`, `RP-HPLC`).
 * With `whole`, the text must be the method and little else (a qualifier in brackets).
 */
export function readMethod(text: string, whole = false): string | null {
  const t = text.trim();
  const m = METHOD.exec(t);
  if (!m) return null;
  const method = m[0];
  // `LC`, `MS` or `GC` on their own are too short to trust inside prose.
  if (!/hplc|uplc|[-/ ]/i.test(method) && !whole) return null;
  if (
    whole &&
    t
      .replace(method, '')
      .replace(/\([^)]*\)/g, '')
      .trim()
      .replace(/[,;.]$/, '') !== ''
  )
    return null;
  return method;
}

// A word of a lot number: letters, digits and `-_/.#`.
const BATCH_WORD = /^[a-z0-9][a-z0-9\-_/.#]*$/i;
// Words that start a note printed after the number, not part of it (`A-1 exp. 2028`, `12 vials`).
const NOTE_WORD =
  /^(?:exp|expiry|expires|expiration|mfg|mfd|manufactured|made|date|dated|size|qty|retest|best|use|vials?|units?|pcs)$/i;
const MAX_BATCH = 64;
const MAX_BATCH_WORDS = 4;
// Longer letter-only words are prose (`see attached sheet`), not part of a lot number.
const MAX_LETTER_WORD = 6;

/**
 * A batch or lot number. A value of its own (a cell, or the text after `Lot No.:`) is taken as
 * printed, words and all, since vendors print lot numbers such as `LOT 5673` or `batch 183 tirz`
 * and only the whole string finds the batch; it ends at a bracket, a comma, a `Label:` or a word
 * that starts a note (`A-123 (exp. 2028)` and `A-123, exp 2028` give `A-123`). With `whole` (prose
 * after a label without a separator: `Lot # A-123`), the value must be one word. Either way it
 * must hold a digit.
 */
export function readBatch(text: string, whole = false): string | null {
  const words = text.trim().split(/\s+/);
  if (whole && words.length > 1) return null;
  const taken: string[] = [];
  for (const raw of words) {
    const word = raw.replace(/[,;:.]+$/, '');
    if (!BATCH_WORD.test(word) || taken.length === MAX_BATCH_WORDS) break;
    if (taken.length > 0 && (NOTE_WORD.test(word) || (!/\d/.test(word) && word.length > MAX_LETTER_WORD)))
      break;
    taken.push(word);
    // `A-123,` or `A-123;`: the punctuation ends the number (a trailing dot is an abbreviation).
    if (/[,;:]$/.test(raw)) break;
  }
  const batch = taken.join(' ');
  if (batch.length < 2 || batch.length > MAX_BATCH || !/\d/.test(batch)) return null;
  return batch;
}

// Keys are codes, not prose: bounded, and they hold a digit.
const MAX_KEY = 100;
const MIN_KEY = 4;

/**
 * A verification key or code. A value of its own is taken whole, as printed (`AB12 CD34/&`,
 * `X&y=1#z`: labs' keys hold spaces and punctuation), spaces collapsed. With `whole` (prose after
 * a label without a separator), it must be one word, without trailing punctuation. Either way 4 to
 * 100 characters with a digit.
 */
export function readKey(text: string, whole = false): string | null {
  const t = text.replace(/\s+/g, ' ').trim();
  const key = whole ? t.replace(/[,;:.]+$/, '') : t;
  if (whole && key.includes(' ')) return null;
  if (key.length < MIN_KEY || key.length > MAX_KEY || !/\d/.test(key)) return null;
  return key;
}

const URL_IN_TEXT = /(?:https?:\/\/|www\.)[^\s<>()"']+/i;

/** The first web address in the text, without trailing punctuation. */
export function readUrl(text: string): string | null {
  const m = URL_IN_TEXT.exec(text);
  return m ? m[0].replace(/[.,;:]+$/, '') : null;
}

/** Free text (a name): trimmed, one space between words, not empty, not a bare number or mark. */
export function readName(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t === '' || t.length > 160 || !/\p{L}/u.test(t)) return null;
  return t;
}

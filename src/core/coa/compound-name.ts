/**
 * The compound as a CoA prints it. The extractor keeps the printed name and strips only a
 * trailing fill quantity, which is never part of a compound's name: `BPC-157 10mg`,
 * `BPC-157 (10 mg)`, `BPC-157 - 5 mg/vial`, `BPC-157, 5 mg vial` all give `BPC-157`. Salt forms
 * (`Acetate`, `TFA`), brackets with other names (`TB-500 (Thymosin Beta-4)`) and spelling
 * (`bpc157`) are kept as printed: matching.ts compares names punctuation-insensitively by prefix.
 */

// A fill quantity at the end; it starts only where a number starts (linear time on digit runs).
const FILL_SUFFIX =
  /(?<![\d.,])\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|μg|ug|iu)(?![a-z])(?:\s*(?:\/|per)?\s*vials?)?\s*\)?\s*$/i;
const SEPARATORS = ' -–,(/';

/** The printed compound name without a trailing fill quantity, or null when nothing is left. */
export function cleanCompound(printed: string): string | null {
  let t = printed.replace(/\s+/g, ' ').trim();
  const m = FILL_SUFFIX.exec(t);
  if (m) {
    let end = m.index;
    while (end > 0 && SEPARATORS.includes(t.charAt(end - 1))) end--;
    t = t.slice(0, end);
  }
  t = t.trim();
  return t === '' || !/\p{L}/u.test(t) ? null : t;
}

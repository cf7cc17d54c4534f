import type { PlacedLine } from './document-lines.ts';
import { matchLabel } from './labels.ts';

/**
 * The issuing laboratory when no `Laboratory:` label names it: most CoAs print it in the
 * letterhead, in the largest type near the top of page 1. Candidates are the short cells there
 * that are not a title, a label, an address or an accreditation line. Three readings, best first
 * (the tier the extractor ranks them by):
 *   2  a prominent candidate (type at least 85 % of the largest candidate's) naming a laboratory
 *      (`Labs`, `Analytical`, …) or a company (`Inc.`, `GmbH`, …), first in reading order;
 *   3  a copyright line anywhere (`© 2026 Northwind Analytical Laboratories, LLC`);
 *   4  the candidate in the largest type (letterheads without either: `Halcyon Bioscience`).
 * Taglines (`Independent peptide testing`) are set smaller than the name, which is why size counts.
 */

const LAB_WORD =
  /(?<![a-z])(?:labs?|laborator(?:y|ies)|laboratorium|labor|analytic(?:al|s)?|analytik|testing|diagnostics?|bioanalytical|metrology|quality control|qc)(?![a-z])/i;
const NOT_A_NAME =
  /©|all rights|accredit|\biso\b|17025|certif|registered|\bgmp\b|\bglp\b|\bfda\b|\bdea\b|www\.|https?:|@|\bpage\b|\btel\b|\bphone\b/i;
const TITLE =
  /certificate|\bc\.?\s?o\.?\s?a\.?(?![a-z])|analysis report|report of analysis|test report|analytical report|results? report|^report\b/i;
const ORGANISATION =
  /(?<![a-z])(?:inc|llc|ltd|limited|gmbh|ag|s\.?a|b\.?v|corp|co|plc|pty|kft|oy|ab|s\.?r\.?l|s\.?a\.?s|company)(?![a-z])\.?/i;

export interface LabReading {
  name: string;
  tier: number;
}

/** True when the text looks like an organisation rather than a person (`Tested by: J. Smith`). */
export function looksLikeOrganisation(text: string): boolean {
  return LAB_WORD.test(text) || ORGANISATION.test(text);
}

/** The laboratory the letterhead or footer names, or null. `pages` as placed by placeLines. */
export function readLetterhead(pages: readonly (readonly PlacedLine[])[]): LabReading | null {
  const candidates = topLines(pages[0] ?? [])
    .flatMap((l) => l.cells)
    .map((c) => ({ name: c.text.trim(), size: c.size }))
    .filter((c) => isName(c.name) && !/\d{3,}/.test(c.name));
  const largest = Math.max(0, ...candidates.map((c) => c.size));
  const prominent = candidates.find((c) => c.size >= 0.85 * largest && looksLikeOrganisation(c.name));
  if (prominent) return { name: prominent.name, tier: 2 };
  for (const page of pages) {
    for (const line of page) {
      const joined = line.cells.map((c) => c.text).join(' ');
      const m =
        /(?:©|\(c\)|copyright)\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?\s*)?([^|;]+?)(?:\.\s|\s*[|;]|\s+all rights|\.?$)/i.exec(
          joined,
        );
      const name = m?.[1]?.trim().replace(/[,.]$/, '');
      if (name && isName(name)) return { name, tier: 3 };
    }
  }
  const biggest = candidates.find((c) => c.size === largest && !/\d/.test(c.name));
  return biggest ? { name: biggest.name, tier: 4 } : null;
}

// The top fifth of the text on the page, and at least its first three lines.
function topLines(lines: readonly PlacedLine[]): readonly PlacedLine[] {
  const ys = lines.map((l) => l.y);
  if (ys.length === 0) return [];
  const hi = Math.max(...ys);
  const lo = Math.min(...ys);
  const cut = hi - 0.2 * (hi - lo);
  return lines.filter((l, i) => i < 3 || l.y >= cut);
}

function isName(t: string): boolean {
  if (t.length < 3 || t.length > 80 || !/\p{L}/u.test(t)) return false;
  if (t.split(/\s+/).length > 8 || NOT_A_NAME.test(t) || TITLE.test(t)) return false;
  const label = matchLabel(t);
  return !(label && (label.separated || label.rest === ''));
}

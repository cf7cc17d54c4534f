export interface Peptide {
  id: number;
  slug: string;
  name: string;
  /** Lowercase slug of the category, e.g. `healing`, `metabolic` (open set; see docs/import-format.md). */
  category: string;
  /** Text: a number followed by a unit, e.g. "1419.5 g/mol". */
  molecularWeight: string;
  aliases: string[];
}

/**
 * The one order of peptide lists: name ignoring case, then slug. Sorted here rather than in SQL,
 * whose order would depend on the database's collation.
 */
export function comparePeptides(
  a: { name: string; slug: string },
  b: { name: string; slug: string },
): number {
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

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

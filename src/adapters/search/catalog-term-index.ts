import type { ScoredVendor } from '../../core/catalog/read-model.ts';
import type { Peptide } from '../../core/peptides/model.ts';
import type { CatalogIndex } from '../../core/search/model.ts';
import { TermIndex } from './term-index.ts';

/** Field boosts: the name matters most, then the slug, then the rest (country; aliases and category). */
const NAME = 3;
const SLUG = 1.5;
const EXTRA = 1;

/** The catalog index of decision 0010: one TermIndex for scored vendors, one for peptides. */
export function catalogTermIndex(
  vendors: readonly ScoredVendor[],
  peptides: readonly Peptide[],
): CatalogIndex {
  const vendorIndex = new TermIndex(
    vendors.map((v) => ({
      fields: [
        { text: v.name, boost: NAME },
        { text: v.slug, boost: SLUG },
        { text: v.location, boost: EXTRA },
      ],
    })),
  );
  const peptideIndex = new TermIndex(
    peptides.map((p) => ({
      fields: [
        { text: p.name, boost: NAME },
        { text: p.slug, boost: SLUG },
        { text: p.category, boost: EXTRA * 0.5 },
        // Each alias on its own, so words of two aliases are never run together into one term.
        ...p.aliases.map((a) => ({ text: a, boost: EXTRA * 2 })),
      ],
    })),
  );
  return {
    searchVendors: (q, limit) =>
      vendorIndex.search(q, limit).map((h) => ({ vendor: vendors[h.doc]!, relevance: h.relevance })),
    searchPeptides: (q, limit) =>
      peptideIndex.search(q, limit).map((h) => ({ peptide: peptides[h.doc]!, relevance: h.relevance })),
  };
}

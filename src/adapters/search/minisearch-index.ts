import MiniSearch, { type SearchOptions } from 'minisearch';
import type { ScoredVendor } from '../../core/catalog/read-model.ts';
import type { Peptide } from '../../core/peptides/model.ts';
import type { CatalogIndex, PeptideHit, VendorHit } from '../../core/search/model.ts';
import { fold, searchTerms } from '../../core/search/normalize.ts';

interface Doc {
  id: number;
  name: string;
  slug: string;
  extra: string;
}

/** One typo in words of five letters or more; prefixes match while the reader types. */
const QUERY: SearchOptions = {
  prefix: (term) => term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 1 : false),
  combineWith: 'OR',
  boost: { name: 3, slug: 1.5, extra: 1 },
  // Prefix and typo matches count, but less than the exact word.
  weights: { prefix: 0.5, fuzzy: 0.35 },
};

function buildIndex(docs: Doc[]): MiniSearch<Doc> {
  const index = new MiniSearch<Doc>({
    fields: ['name', 'slug', 'extra'],
    tokenize: (text) => searchTerms(text),
    // Terms arrive folded from searchTerms; MiniSearch's own lower-casing would be redundant.
    processTerm: (term) => term,
    searchOptions: { ...QUERY, tokenize: (text) => searchTerms(text), processTerm: (t) => fold(t) },
  });
  index.addAll(docs);
  return index;
}

/** MiniSearch over the scored vendors and all peptides of one snapshot. */
export function miniSearchIndex(
  vendors: readonly ScoredVendor[],
  peptides: readonly Peptide[],
): CatalogIndex {
  const vendorIndex = buildIndex(
    vendors.map((v, i) => ({ id: i, name: v.name, slug: v.slug, extra: v.location })),
  );
  const peptideIndex = buildIndex(
    peptides.map((p, i) => ({
      id: i,
      name: p.name,
      slug: p.slug,
      extra: `${p.aliases.join(' | ')} | ${p.category}`,
    })),
  );
  return {
    searchVendors(query: string): VendorHit[] {
      return vendorIndex.search(query).map((r) => ({ vendor: vendors[r.id as number]!, relevance: r.score }));
    },
    searchPeptides(query: string): PeptideHit[] {
      return peptideIndex
        .search(query)
        .map((r) => ({ peptide: peptides[r.id as number]!, relevance: r.score }));
    },
  };
}

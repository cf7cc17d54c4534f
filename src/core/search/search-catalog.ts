import { type CatalogSnapshot, compareRanking } from '../catalog/read-model.ts';
import { invalidParameter } from '../errors.ts';
import { comparePeptides } from '../peptides/model.ts';
import type { CatalogIndex, CatalogIndexFactory, PeptideHit, VendorHit } from './model.ts';

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

export interface SearchResult {
  vendors: VendorHit[];
  peptides: PeptideHit[];
}

/**
 * Keeps one index per catalog snapshot: rebuilt (once, shared by concurrent callers) when the data
 * version moves, so search follows imports without a restart.
 */
export class CatalogSearch {
  private current: { version: number; index: CatalogIndex } | null = null;

  constructor(private readonly factory: CatalogIndexFactory) {}

  indexFor(snap: CatalogSnapshot): CatalogIndex {
    if (this.current?.version !== snap.version) {
      this.current = { version: snap.version, index: this.factory(snap.ranked, snap.peptides) };
    }
    return this.current.index;
  }

  /**
   * Relevance order; ties go to the higher composite score (vendors) or the peptide with more
   * ranked vendors, then the name.
   */
  search(snap: CatalogSnapshot, q: string, limit: number): SearchResult {
    const query = q.trim();
    if (query === '') throw invalidParameter('q', 'must not be empty.');
    // Counted in characters (code points), as the route schema counts them, not UTF-16 units.
    if ([...query].length > MAX_QUERY_LENGTH) {
      throw invalidParameter('q', `must be at most ${MAX_QUERY_LENGTH} characters long.`);
    }
    const index = this.indexFor(snap);
    const count = (slug: string) => snap.peptideRankings.get(slug)?.length ?? 0;
    return {
      vendors: topWithTies(
        index.searchVendors(query, limit),
        limit,
        // The ranking's own order: score, then name ignoring case, then slug.
        (a, b) => compareRanking(a.vendor, b.vendor),
      ),
      peptides: topWithTies(
        index.searchPeptides(query, limit),
        limit,
        (a, b) => count(b.peptide.slug) - count(a.peptide.slug) || comparePeptides(a.peptide, b.peptide),
      ),
    };
  }
}

/**
 * The first `limit` hits of a relevance-ordered list, with ties at the cut resolved by `tiebreak`
 * rather than by whatever order the index happened to return them in. Sorts only the top slice.
 */
export function topWithTies<H extends { relevance: number }>(
  hits: H[],
  limit: number,
  tiebreak: (a: H, b: H) => number,
): H[] {
  if (hits.length === 0) return hits;
  let end = Math.min(limit, hits.length);
  const cut = hits[end - 1]!.relevance;
  while (end < hits.length && hits[end]!.relevance === cut) end++;
  return hits
    .slice(0, end)
    .sort((a, b) => b.relevance - a.relevance || tiebreak(a, b))
    .slice(0, limit);
}

/**
 * Text folding shared by indexing and querying: case-, accent- and punctuation-insensitive, so
 * `bpc157`, `BPC 157` and `bpc-157` all meet `BPC-157`.
 */
export const fold = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Words of a text: letters and digits, split at anything else. */
export const words = (s: string): string[] =>
  fold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The terms a text is indexed (and a query searched) under: its words, the words run together
 * ("bpc-157" → "bpc157"), and each adjacent pair run together ("thymosin beta-4" → "beta4"), so a
 * reader may type a name with or without its punctuation and spaces.
 */
export function searchTerms(s: string): string[] {
  const w = words(s);
  const out = new Set(w);
  if (w.length > 1) out.add(w.join(''));
  for (let i = 0; i + 1 < w.length; i++) out.add(w[i]! + w[i + 1]!);
  return [...out];
}

/** A cache key for a query: equal for queries that search the same terms. */
export const queryKey = (q: string): string => words(q).join(' ');

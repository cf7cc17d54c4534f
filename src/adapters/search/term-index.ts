import { searchTerms, words } from '../../core/search/normalize.ts';

/** A document to index: its fields' texts and their boosts. */
export interface IndexedDoc {
  fields: { text: string; boost: number }[];
}

export interface TermIndexOptions {
  /** Weight of a prefix match relative to the exact word. (Default: 0.5) */
  prefixWeight?: number;
  /** Weight of a one-typo match. (Default: 0.35) */
  fuzzyWeight?: number;
  /** Shortest query word that may match as a prefix. (Default: 2) */
  minPrefix?: number;
  /** Shortest query word that tolerates one typo. (Default: 5) */
  minFuzzy?: number;
  /** Most vocabulary terms one prefix may expand to, so "a…" cannot scan everything. (Default: 300) */
  maxPrefixTerms?: number;
}

const K1 = 1.2;
const B = 0.7;

/**
 * An inverted index with BM25-style field-weighted scoring, prefix ranges over the sorted
 * vocabulary and a deletion-neighbourhood map for one-typo matches. Scores accumulate into a
 * preallocated array, so a query costs what its matches cost, with no per-hit objects until the
 * top of the list is cut. Built once per catalog snapshot.
 */
export class TermIndex {
  private readonly termIds = new Map<string, number>();
  private readonly vocab: string[] = [];
  private readonly sorted: string[];
  private readonly postings: { docs: Int32Array; weights: Float64Array }[] = [];
  private readonly idf: Float64Array;
  /** Single-character deletions (and the term itself) → terms, for terms long enough to be typo targets. */
  private readonly deletions = new Map<string, number[]>();
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;
  /** Per query term: each document's best expansion score (zeroed after use). */
  private readonly best: Float64Array;
  private readonly touchedTerm: Int32Array;
  private readonly opts: Required<TermIndexOptions>;

  constructor(docs: readonly IndexedDoc[], options: TermIndexOptions = {}) {
    this.opts = {
      prefixWeight: 0.5,
      fuzzyWeight: 0.35,
      minPrefix: 2,
      minFuzzy: 5,
      maxPrefixTerms: 300,
      ...options,
    };
    const n = docs.length;
    this.scores = new Float64Array(n);
    this.touched = new Int32Array(n);
    this.best = new Float64Array(n);
    this.touchedTerm = new Int32Array(n);

    // Field lengths for BM25's length normalisation, per field position.
    const fieldCount = Math.max(0, ...docs.map((d) => d.fields.length));
    const docTerms: string[][][] = docs.map((d) => d.fields.map((f) => searchTerms(f.text)));
    const avgLen = Array.from({ length: fieldCount }, (_, f) => {
      let sum = 0;
      for (const t of docTerms) sum += t[f]?.length ?? 0;
      return Math.max(1, sum / Math.max(1, n));
    });

    const lists: { docs: number[]; weights: number[] }[] = [];
    // Typos are forgiven in words only: not in run-together forms (long, and each unique), nor in
    // numbers (a "typo" in 1570 is another number).
    const typoTargets = new Set<string>();
    for (const d of docs) {
      for (const f of d.fields) {
        for (const w of words(f.text))
          if (w.length >= this.opts.minFuzzy - 1 && /\p{L}/u.test(w)) typoTargets.add(w);
      }
    }
    for (let d = 0; d < n; d++) {
      const perTerm = new Map<number, number>();
      const fields = docs[d]!.fields;
      for (let f = 0; f < fields.length; f++) {
        const terms = docTerms[d]![f]!;
        const tf = new Map<string, number>();
        for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
        const norm = 1 - B + (B * terms.length) / avgLen[f]!;
        for (const [t, freq] of tf) {
          const id = this.intern(t, lists);
          const w = (fields[f]!.boost * (freq * (K1 + 1))) / (freq + K1 * norm);
          perTerm.set(id, (perTerm.get(id) ?? 0) + w);
        }
      }
      for (const [id, w] of perTerm) {
        lists[id]!.docs.push(d);
        lists[id]!.weights.push(w);
      }
    }
    this.idf = new Float64Array(this.vocab.length);
    for (let id = 0; id < this.vocab.length; id++) {
      const l = lists[id]!;
      this.postings.push({ docs: Int32Array.from(l.docs), weights: Float64Array.from(l.weights) });
      const df = l.docs.length;
      this.idf[id] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const term = this.vocab[id]!;
      if (typoTargets.has(term)) {
        for (const key of deletionKeys(term)) {
          const list = this.deletions.get(key);
          if (list) list.push(id);
          else this.deletions.set(key, [id]);
        }
      }
    }
    this.sorted = [...this.vocab].sort();
  }

  /**
   * Documents matching any term of the query, best first, as [doc, relevance] pairs: the first
   * `limit`, plus any further ones tied with the last (callers break ties by their own rule).
   */
  search(query: string, limit: number): { doc: number; relevance: number }[] {
    const { scores, touched, best, touchedTerm } = this;
    let count = 0;
    for (const q of searchTerms(query)) {
      // Each query term scores a document by its best match (exact, prefix or typo), so a long
      // name does not outrank an exact one by also matching the term as a prefix elsewhere.
      const expansions: [number, number][] = [];
      const exact = this.termIds.get(q);
      if (exact !== undefined) expansions.push([exact, 1]);
      if (q.length >= this.opts.minPrefix)
        for (const id of this.prefixTerms(q)) expansions.push([id, this.opts.prefixWeight]);
      if (q.length >= this.opts.minFuzzy)
        for (const id of this.typoTerms(q)) expansions.push([id, this.opts.fuzzyWeight]);
      let termCount = 0;
      for (const [id, w] of expansions) {
        const p = this.postings[id]!;
        const f = w * this.idf[id]!;
        for (let i = 0; i < p.docs.length; i++) {
          const d = p.docs[i]!;
          const v = f * p.weights[i]!;
          if (best[d] === 0) touchedTerm[termCount++] = d;
          if (v > best[d]!) best[d] = v;
        }
      }
      for (let i = 0; i < termCount; i++) {
        const d = touchedTerm[i]!;
        if (scores[d] === 0) touched[count++] = d;
        scores[d] = scores[d]! + best[d]!;
        best[d] = 0;
      }
    }
    const hits = Array.from(touched.subarray(0, count), (doc) => ({ doc, relevance: scores[doc]! }));
    for (let i = 0; i < count; i++) scores[touched[i]!] = 0;
    return cutWithTies(hits, limit);
  }

  private intern(term: string, lists: { docs: number[]; weights: number[] }[]): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.vocab.length;
      this.termIds.set(term, id);
      this.vocab.push(term);
      lists.push({ docs: [], weights: [] });
    }
    return id;
  }

  /** Vocabulary terms that start with q (q itself excluded), by binary search on the sorted list. */
  private *prefixTerms(q: string): Generator<number> {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid]! < q) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo, seen = 0; i < this.sorted.length && seen < this.opts.maxPrefixTerms; i++) {
      const t = this.sorted[i]!;
      if (!t.startsWith(q)) break;
      if (t === q) continue;
      seen++;
      yield this.termIds.get(t)!;
    }
  }

  /** Terms one edit (insert, delete, substitute, swap neighbours) away from q, q itself excluded. */
  private typoTerms(q: string): Set<number> {
    const out = new Set<number>();
    for (const key of deletionKeys(q)) {
      for (const id of this.deletions.get(key) ?? []) {
        const t = this.vocab[id]!;
        if (t !== q && withinOneEdit(t, q)) out.add(id);
      }
    }
    return out;
  }
}

/** The term and every string one deletion away from it. */
function deletionKeys(term: string): string[] {
  const keys = [term];
  for (let i = 0; i < term.length; i++) keys.push(term.slice(0, i) + term.slice(i + 1));
  return keys;
}

/** One insertion, deletion, substitution or swap of two neighbouring letters (the commonest typo). */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * The first `limit` hits plus those tied with the last. A limit that is not a positive number
 * (0, negative, NaN, -Infinity) keeps nothing, a fractional one is rounded down, Infinity keeps all:
 * the index never trusts its caller to have validated the limit.
 */
function cutWithTies<H extends { relevance: number }>(hits: H[], limit: number): H[] {
  const n = limit >= 1 ? Math.floor(limit) : 0;
  if (n === 0) return [];
  hits.sort((x, y) => y.relevance - x.relevance);
  if (hits.length <= n) return hits;
  let end = n;
  const cut = hits[n - 1]!.relevance;
  while (end < hits.length && hits[end]!.relevance === cut) end++;
  return hits.slice(0, end);
}

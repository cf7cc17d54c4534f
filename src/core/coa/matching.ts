/**
 * How the verifier compares what a document prints with the library and the registry: case-,
 * punctuation- and spacing-insensitive (`BPC157` is BPC-157), with company suffixes ignored for
 * labs. One place, so the decision table and its documentation agree.
 */

/** Lower-case letters and digits only (NFKC first, so full-width digits count). */
export const squash = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export interface NamedThing {
  slug: string;
  name: string;
  aliases?: readonly string[];
}

/** A thing's names (slug, name, aliases), squashed once: what matchNamed compares against. */
export interface NameIndex<T> {
  entries: readonly { key: string; thing: T }[];
}

/** Squashes every name of every thing once (a document is matched against them many times). */
export function nameIndex<T extends NamedThing>(things: readonly T[]): NameIndex<T> {
  const entries: { key: string; thing: T }[] = [];
  for (const t of things) {
    for (const n of [t.slug, t.name, ...(t.aliases ?? [])]) {
      const key = squash(n);
      if (key !== '') entries.push({ key, thing: t });
    }
  }
  return { entries };
}

/**
 * The library entry a printed compound names: the longest name or alias that the squashed text
 * equals or starts with, when the next character is not a digit (`GHRP-2` is not `GHRP-22`), so
 * `BPC-157 Acetate 5mg` is BPC-157 and `TB-500 (Thymosin Beta-4)` is TB-500. Of two names of the
 * same length, the earlier thing's wins.
 */
export function matchNamed<T extends NamedThing>(
  text: string,
  things: readonly T[] | NameIndex<T>,
): T | null {
  const s = squash(text);
  if (s === '') return null;
  const index = Array.isArray(things) ? nameIndex(things as readonly T[]) : (things as NameIndex<T>);
  let best: { thing: T; len: number } | null = null;
  for (const { key: k, thing } of index.entries) {
    if (!s.startsWith(k)) continue;
    if (isDigit(s.charCodeAt(k.length)) && isDigit(k.charCodeAt(k.length - 1))) continue;
    if (!best || k.length > best.len) best = { thing, len: k.length };
  }
  return best?.thing ?? null;
}

/** An ASCII digit (squashed text holds nothing else that a digit test could meet). */
const isDigit = (code: number): boolean => code >= 48 && code <= 57;

const LAB_SUFFIXES =
  /(laboratories|laboratory|labs|lab|analytical|analytics|testing|services|inc|llc|ltd|limited|gmbh|sro|corp|corporation|co|bv|ag|sa)+$/;

/** A lab name reduced to what identifies it: `Meridian Analytical Laboratories, Inc.` → `meridian`. */
export function labCore(name: string): string {
  const s = squash(name);
  const core = s.replace(LAB_SUFFIXES, '');
  return core.length >= 3 ? core : s;
}

/** Whether two lab names name the same lab. */
export const sameLab = (a: string, b: string): boolean => labCore(a) === labCore(b);

/** Batch numbers as printed compare without case, spaces or punctuation (`BPC-2611-A` = `bpc2611a`). */
export const sameBatch = (a: string, b: string): boolean => squash(a) === squash(b) && squash(a) !== '';

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

/**
 * The library entry a printed compound names: the longest name or alias that the squashed text
 * equals or starts with, when the next character is not a digit (`GHRP-2` is not `GHRP-22`), so
 * `BPC-157 Acetate 5mg` is BPC-157 and `TB-500 (Thymosin Beta-4)` is TB-500.
 */
export function matchNamed<T extends NamedThing>(text: string, things: readonly T[]): T | null {
  const s = squash(text);
  if (s === '') return null;
  let best: { thing: T; len: number } | null = null;
  for (const t of things) {
    for (const n of [t.slug, t.name, ...(t.aliases ?? [])]) {
      const k = squash(n);
      if (k === '' || !s.startsWith(k)) continue;
      if (/[0-9]/.test(s.charAt(k.length)) && /[0-9]$/.test(k)) continue;
      if (!best || k.length > best.len) best = { thing: t, len: k.length };
    }
  }
  return best?.thing ?? null;
}

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

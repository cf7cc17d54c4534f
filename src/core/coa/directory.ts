import { labCore, matchNamed, type NamedThing, type NameIndex, nameIndex, squash } from './matching.ts';

export interface PeptideEntry extends NamedThing {
  aliases: readonly string[];
}

export interface LabEntry {
  slug: string;
  name: string;
  trusted: boolean;
  flagged: boolean;
  verifyUrl: string | null;
}

export interface VendorEntry {
  slug: string;
  name: string;
}

/**
 * The library, the lab registry and the vendor names, as the verifier matches printed text
 * against them. Built once per registry version (verify-coa.ts), so matching costs no query.
 */
export class Directory {
  private readonly labsByCore = new Map<string, LabEntry>();
  private readonly labsByExact = new Map<string, LabEntry>();
  private readonly peptidesByName = new Map<string, PeptideEntry>();
  private readonly vendorsBySlug = new Map<string, VendorEntry>();
  private readonly vendorsByCore = new Map<string, VendorEntry[]>();
  /** The library's names squashed once: a compound line is matched against all of them. */
  private readonly peptideNames: NameIndex<PeptideEntry>;

  constructor(
    readonly peptides: readonly PeptideEntry[],
    readonly labs: readonly LabEntry[],
    readonly vendors: readonly VendorEntry[],
  ) {
    // Two labs that reduce to the same name (`Apex Labs`, `Apex Analytical`) are told apart only
    // by their exact names: the reduced name then names neither (an unknown lab, not a guess).
    const ambiguous = new Set<string>();
    for (const l of labs) {
      for (const n of new Set([labCore(l.name), labCore(l.slug)])) {
        const seen = this.labsByCore.get(n);
        if (seen && seen.slug !== l.slug) ambiguous.add(n);
        else this.labsByCore.set(n, l);
      }
      this.labsByExact.set(squash(l.name), l);
      this.labsByExact.set(squash(l.slug), l);
    }
    for (const n of ambiguous) this.labsByCore.delete(n);
    this.peptideNames = nameIndex(peptides);
    for (const p of peptides) {
      for (const n of [p.slug, p.name, ...p.aliases]) {
        const k = squash(n);
        if (k !== '' && !this.peptidesByName.has(k)) this.peptidesByName.set(k, p);
      }
    }
    for (const v of vendors) {
      this.vendorsBySlug.set(v.slug, v);
      for (const k of new Set([labCore(v.name), labCore(v.slug)])) {
        const list = this.vendorsByCore.get(k);
        if (list) list.push(v);
        else this.vendorsByCore.set(k, [v]);
      }
    }
  }

  /** The peptide a request names by slug, name or alias (exactly, after squashing). */
  peptideNamed(text: string): PeptideEntry | null {
    return this.peptidesByName.get(squash(text)) ?? null;
  }

  /** The peptide a document's compound line names (it may carry a salt, a dose, a synonym). */
  peptidePrinted(text: string): PeptideEntry | null {
    return matchNamed(text, this.peptideNames);
  }

  lab(printed: string): LabEntry | null {
    return this.labsByExact.get(squash(printed)) ?? this.labsByCore.get(labCore(printed)) ?? null;
  }

  vendor(slug: string): VendorEntry | null {
    return this.vendorsBySlug.get(slug) ?? null;
  }

  /**
   * The vendor a document's client line names, when it names exactly one (company suffixes
   * ignored, as for labs: `Acme Peptides LLC` is Acme Peptides).
   */
  vendorPrinted(text: string): VendorEntry | null {
    const k = labCore(text);
    if (k.length < 3) return null;
    const hits = this.vendorsByCore.get(k) ?? [];
    return hits.length === 1 ? (hits[0] ?? null) : null;
  }
}

import type { Peptide } from '../peptides/model.ts';
import type { CatalogStore, DataState } from '../ports.ts';
import { isScored, type Pillars, type Vendor } from '../vendors/model.ts';

export type ScoredVendor = Vendor & { score: number; pillars: Pillars };

/** An immutable view of the catalog at one data version. */
export interface CatalogSnapshot {
  version: number;
  dataUpdatedAt: string;
  /** Every scored vendor, in ranking order (score desc, then name, then slug). */
  ranked: readonly ScoredVendor[];
  /** Scored and verified, in ranking order: Variant A's public ranking. */
  rankedVerified: readonly ScoredVendor[];
  bySlug: ReadonlyMap<string, Vendor>;
  /** Every peptide, by name. */
  peptides: readonly Peptide[];
  peptideBySlug: ReadonlyMap<string, Peptide>;
  /**
   * Per peptide slug: the verified, scored vendors that list it, in ranking order. This ONE list
   * is both Variant A's per-peptide ranking and its `vendor_count`, so the two cannot disagree.
   */
  peptideRankings: ReadonlyMap<string, readonly ScoredVendor[]>;
}

/** The one ordering rule of every ranking (DESIGN.md §4). Names compare case-insensitively. */
export function compareRanking(a: ScoredVendor, b: ScoredVendor): number {
  if (a.score !== b.score) return b.score - a.score;
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

/**
 * Rebuilds the snapshot when the data version moves; concurrent readers during a rebuild share
 * one load. Only vendors live here (10,000 vendors ≈ a few MB); batches stay in the store.
 */
export class CatalogReadModel {
  private snapshot: CatalogSnapshot | null = null;
  private building: { version: number; promise: Promise<CatalogSnapshot> } | null = null;

  constructor(private readonly store: CatalogStore) {}

  /** The snapshot for `state`, synchronously when it is already built. */
  peek(state: DataState): CatalogSnapshot | null {
    return this.snapshot?.version === state.dataVersion ? this.snapshot : null;
  }

  async get(state: DataState): Promise<CatalogSnapshot> {
    const ready = this.peek(state);
    if (ready) return ready;
    if (this.building?.version === state.dataVersion) return this.building.promise;
    const promise = this.build(state);
    this.building = { version: state.dataVersion, promise };
    try {
      const snap = await promise;
      if (!this.snapshot || snap.version >= this.snapshot.version) this.snapshot = snap;
      return snap;
    } finally {
      if (this.building?.promise === promise) this.building = null;
    }
  }

  private async build(state: DataState): Promise<CatalogSnapshot> {
    const [vendors, peptides, offerings] = await Promise.all([
      this.store.listVendors(),
      this.store.listPeptides(),
      this.store.listOfferings(),
    ]);
    const ranked = vendors.filter(isScored).sort(compareRanking);
    const rankedVerified = ranked.filter((v) => v.verified);
    // Walking the ranking in order keeps every per-peptide list sorted without another sort.
    const position = new Map(rankedVerified.map((v, i) => [v.id, i]));
    const byPeptide = new Map<number, number[]>();
    for (const o of offerings) {
      const at = position.get(o.vendorId);
      if (at === undefined) continue;
      const list = byPeptide.get(o.peptideId);
      if (list) list.push(at);
      else byPeptide.set(o.peptideId, [at]);
    }
    const peptideRankings = new Map<string, readonly ScoredVendor[]>();
    for (const p of peptides) {
      const at = (byPeptide.get(p.id) ?? []).sort((a, b) => a - b);
      peptideRankings.set(
        p.slug,
        at.map((i) => rankedVerified[i]!),
      );
    }
    return {
      version: state.dataVersion,
      dataUpdatedAt: state.dataUpdatedAt,
      ranked,
      rankedVerified,
      bySlug: new Map(vendors.map((v) => [v.slug, v])),
      peptides,
      peptideBySlug: new Map(peptides.map((p) => [p.slug, p])),
      peptideRankings,
    };
  }
}

import type { Peptide } from '../peptides/model.ts';
import type { CatalogStore, DataState } from '../ports.ts';
import { isScored, type Pillars, type Vendor } from '../vendors/model.ts';

export type ScoredVendor = Vendor & { score: number; pillars: Pillars };

/**
 * A vendor of Variant A's public ranking: verified, scored, and with a tested purity on record
 * (decision 0016). A's list item shows `purity` as percentage text; a vendor without tested
 * batches has none to show, so it waits outside the ranking until its first approved CoA.
 */
export type RankedVendorA = ScoredVendor & { purity: number };

export const isRankedInA = (v: ScoredVendor): v is RankedVendorA => v.verified && v.purity !== null;

/** An immutable view of the catalog at one data version. */
export interface CatalogSnapshot {
  version: number;
  /**
   * The data version at which what this snapshot holds (vendors, peptides, offerings, every
   * ranking) was last assembled. A write that changes none of it (a pending CoA submission) moves
   * `version` but not this: whatever is rendered from the snapshot alone is still exactly what it
   * was, so the response cache keeps those bodies (response-cache.ts, catalog keys).
   */
  contentVersion: number;
  /**
   * When the data this snapshot holds last changed: the data state's `dataUpdatedAt` at
   * `contentVersion` (Variant B's `data_updated_at` of the vendor list). A write that changes none of
   * it leaves it where it was; a full load (a fresh process) takes the data state's time, which is
   * never earlier than the real change (DESIGN.md: when the data behind the response last changed).
   */
  dataUpdatedAt: string;
  /** Every scored vendor, in ranking order (score desc, then name, then slug). */
  ranked: readonly ScoredVendor[];
  /**
   * Variant A's public ranking, in ranking order: scored, verified, with a tested purity on record
   * (isRankedInA). Its list, its `total`, every per-peptide ranking and `vendor_count` derive from it.
   */
  rankedVerified: readonly RankedVendorA[];
  bySlug: ReadonlyMap<string, Vendor>;
  /** Every peptide, by name. */
  peptides: readonly Peptide[];
  peptideBySlug: ReadonlyMap<string, Peptide>;
  /**
   * Per peptide slug: the vendors of rankedVerified that list it, in ranking order. This ONE list
   * is both Variant A's per-peptide ranking and its `vendor_count`, so the two cannot disagree.
   */
  peptideRankings: ReadonlyMap<string, readonly RankedVendorA[]>;
  /** Every vendor by id, and the peptides each lists: what the next snapshot is merged onto. */
  vendors: ReadonlyMap<number, Vendor>;
  offerings: ReadonlyMap<number, readonly number[]>;
  /** The store's peptidesStamp() the peptides were loaded at. */
  peptidesStamp: string;
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

  /**
   * The content version of the snapshot at `dataVersion` when that snapshot is built, else
   * undefined (not known yet: the caller treats what it holds as unconfirmed). Synchronous: the
   * fast path asks it on every cached catalog read.
   */
  contentVersionAt(dataVersion: number): number | undefined {
    const snap = this.snapshot;
    return snap !== null && snap.version === dataVersion ? snap.contentVersion : undefined;
  }

  /**
   * Builds the snapshot of `state` now, in the background, when one was built before (a process
   * that serves no catalog reads builds none): the first read after a write then finds it ready,
   * and a cached body whose content did not change is served from memory at once. Errors are
   * left to the next reader, which builds again.
   */
  prefetch(state: DataState): void {
    if (this.snapshot === null || this.snapshot.version >= state.dataVersion) return;
    this.get(state).catch(() => undefined);
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
    const prev = this.snapshot;
    if (prev && prev.version < state.dataVersion) {
      // Only the vendors written since the snapshot: a one-vendor change costs one indexed query,
      // not a reload of every vendor (the list reflects a change within milliseconds).
      const [changed, stamp] = await Promise.all([
        this.store.listVendorsChangedSince(prev.version),
        this.store.peptidesStamp(),
      ]);
      const peptides = stamp === prev.peptidesStamp ? prev.peptides : await this.store.listPeptides();
      if (changed.length <= INCREMENTAL_MAX) {
        const ids = changed.map((v) => v.id);
        // Fresh lists for the changed vendors; the others' lists are shared, never mutated.
        const fresh = new Map<number, number[]>();
        for (const o of await this.store.listOfferings(ids)) addOffering(fresh, o.vendorId, o.peptideId);
        if (peptides === prev.peptides && changed.every((v) => unchanged(prev, v, fresh.get(v.id) ?? []))) {
          // A write that changed nothing these rankings hold (a pending CoA submission recomputes
          // its vendor to the same figures): the rankings are the previous ones, under the new
          // version. Re-ranking 10,000 vendors per such write cost the main thread ~20 ms each.
          // Its content version and time stay: the data it holds did not change.
          return { ...prev, version: state.dataVersion };
        }
        const offerings = new Map<number, readonly number[]>(prev.offerings);
        for (const id of ids) offerings.set(id, fresh.get(id) ?? []);
        const vendors = new Map(prev.vendors);
        for (const v of changed) vendors.set(v.id, v);
        return assemble(state, vendors, peptides, offerings, stamp);
      }
    }
    const [vendors, peptides, offerings, stamp] = await Promise.all([
      this.store.listVendors(),
      this.store.listPeptides(),
      this.store.listOfferings(),
      this.store.peptidesStamp(),
    ]);
    const byVendor = new Map<number, number[]>();
    for (const o of offerings) addOffering(byVendor, o.vendorId, o.peptideId);
    return assemble(state, new Map(vendors.map((v) => [v.id, v])), peptides, byVendor, stamp);
  }
}

/** Whether a reloaded vendor, and what it offers, is what the snapshot already holds. */
function unchanged(prev: CatalogSnapshot, v: Vendor, offered: readonly number[]): boolean {
  const before = prev.vendors.get(v.id);
  if (!before || JSON.stringify(before) !== JSON.stringify(v)) return false;
  const had = prev.offerings.get(v.id) ?? [];
  return had.length === offered.length && [...had].sort().join() === [...offered].sort().join();
}

/** More changed vendors than this and a full reload is as cheap as merging. */
const INCREMENTAL_MAX = 2000;

function addOffering(map: Map<number, number[]>, vendorId: number, peptideId: number): void {
  const list = map.get(vendorId);
  if (list) list.push(peptideId);
  else map.set(vendorId, [peptideId]);
}

/** Derives every ranking of a snapshot from its vendors, peptides and offerings. */
function assemble(
  state: DataState,
  vendors: ReadonlyMap<number, Vendor>,
  peptides: readonly Peptide[],
  offerings: ReadonlyMap<number, readonly number[]>,
  peptidesStamp: string,
): CatalogSnapshot {
  const all = [...vendors.values()];
  const ranked = rank(all.filter(isScored));
  const rankedVerified = ranked.filter(isRankedInA);
  // Walking the ranking in order keeps every per-peptide list sorted without another sort.
  const byPeptide = new Map<number, RankedVendorA[]>();
  for (const v of rankedVerified) {
    for (const peptideId of offerings.get(v.id) ?? []) {
      const list = byPeptide.get(peptideId);
      if (list) list.push(v);
      else byPeptide.set(peptideId, [v]);
    }
  }
  const peptideRankings = new Map<string, readonly RankedVendorA[]>();
  for (const p of peptides) peptideRankings.set(p.slug, byPeptide.get(p.id) ?? []);
  return {
    version: state.dataVersion,
    contentVersion: state.dataVersion,
    dataUpdatedAt: state.dataUpdatedAt,
    ranked,
    rankedVerified,
    bySlug: new Map(all.map((v) => [v.slug, v])),
    peptides,
    peptideBySlug: new Map(peptides.map((p) => [p.slug, p])),
    peptideRankings,
    vendors,
    offerings,
    peptidesStamp,
  };
}

/**
 * Sorts by compareRanking's rule with each name lower-cased once, not twice per comparison
 * (10,000 vendors: ~140,000 comparisons on every data version).
 */
export function rank(scored: ScoredVendor[]): ScoredVendor[] {
  const keyed = scored.map((v) => ({ v, name: v.name.toLowerCase() }));
  keyed.sort((a, b) => {
    if (a.v.score !== b.v.score) return b.v.score - a.v.score;
    if (a.name !== b.name) return a.name < b.name ? -1 : 1;
    return a.v.slug < b.v.slug ? -1 : a.v.slug > b.v.slug ? 1 : 0;
  });
  return keyed.map((k) => k.v);
}

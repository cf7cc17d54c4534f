import type { ScoredVendor } from '../catalog/read-model.ts';
import type { Peptide } from '../peptides/model.ts';

export interface VendorHit {
  vendor: ScoredVendor;
  relevance: number;
}

export interface PeptideHit {
  peptide: Peptide;
  relevance: number;
}

/** A full-text index over one catalog snapshot (adapters/search implements it). */
export interface CatalogIndex {
  /** The `limit` most relevant hits, most relevant first, plus any tied with the last. */
  searchVendors(query: string, limit: number): VendorHit[];
  /** The `limit` most relevant hits, most relevant first, plus any tied with the last. */
  searchPeptides(query: string, limit: number): PeptideHit[];
}

export type CatalogIndexFactory = (
  vendors: readonly ScoredVendor[],
  peptides: readonly Peptide[],
) => CatalogIndex;

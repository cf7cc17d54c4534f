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
  /** Every hit, most relevant first. */
  searchVendors(query: string): VendorHit[];
  /** Every hit, most relevant first. */
  searchPeptides(query: string): PeptideHit[];
}

export type CatalogIndexFactory = (
  vendors: readonly ScoredVendor[],
  peptides: readonly Peptide[],
) => CatalogIndex;

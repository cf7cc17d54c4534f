export type PriceSource = 'baseline' | 'live';

/** One stored listing row, joined with its vendor's display facts. */
export interface StoredPrice {
  vendorSlug: string;
  vendorName: string;
  claimed: boolean;
  vialMg: number;
  totalUsd: number;
  inStock: boolean;
  source: PriceSource;
  /** ISO 8601. */
  updatedAt: string;
}

/** A row of the merged price table. */
export interface PriceRow {
  vendorSlug: string;
  vendorName: string;
  totalUsd: number;
  vialMg: number;
  /** totalUsd / vialMg, exact (rounded only when presented). */
  perMg: number;
  inStock: boolean;
  claimed: boolean;
  live: boolean;
  stale: boolean;
  updatedAt: string;
}

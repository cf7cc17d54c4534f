/**
 * Which price writes are changes worth keeping (issue [10]): a listing that is new, or whose price
 * or stock differs from what is stored. A record that only refreshes `updatedAt` (a live feed
 * repeating itself) or repeats the stored values (a re-import) changes nothing a buyer sees, so the
 * history stays one row per real move and re-imports stay idempotent.
 */
export interface ListingValues {
  totalUsd: number;
  inStock: boolean;
  /** ISO 8601. */
  updatedAt: string;
}

export const isPriceChange = (before: ListingValues | undefined, after: ListingValues): boolean =>
  before === undefined || before.totalUsd !== after.totalUsd || before.inStock !== after.inStock;

/** A listing's identity: vendor, peptide, vial size and source (the prices table's key). */
export const listingKey = (vendorId: number, peptideId: number, vialMg: number, source: string): string =>
  `${vendorId}\u0000${peptideId}\u0000${vialMg}\u0000${source}`;

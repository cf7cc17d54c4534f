/**
 * What the store knows about one vendor, reduced to the sums the method needs. Storage computes it
 * with a few grouped queries (one pass over batches, reviews and listings), so recomputing every
 * vendor never loads individual rows into memory. Only approved batches are evidence.
 */
export interface VendorEvidenceSums {
  /** Distinct peptides the vendor lists (prices of either source) or has approved batches of. */
  catalogSize: number;
  /** Of those, peptides with a current (not stale) approved batch. */
  currentPeptides: number;
  /** Approved batches (an approved batch always has a test date: the import requires it). */
  approvedBatches: number;
  /** Newest and oldest test date among them (ISO 8601), null without any. */
  newestTestedAt: string | null;
  oldestTestedAt: string | null;
  /** Approved batches with a public source URL, and with a lab marked trusted. */
  withSourceUrl: number;
  withTrustedLab: number;
  /** Purity window (approved, tested within it, purity given), weighted by lab trust. */
  purityWeight: number;
  purityWeightedSum: number;
  purityWeightedSquares: number;
  /** Reviews: total, weight-sums by age band, and the oldest. */
  reviews: number;
  reviewWeight: number;
  reviewWeightedRatings: number;
  oldestReviewAt: string | null;
  /** Sum and count of purity over every approved batch: Variant A's mean purity, not a pillar input. */
  approvedPuritySum: number;
  approvedPurityCount: number;
  /** Profile facts for transparency. */
  hasLocation: boolean;
  hasDescription: boolean;
  hasWebsite: boolean;
  claimed: boolean;
  /** When the operator verified the vendor, if ever. */
  verifiedAt: string | null;
}

export const NO_EVIDENCE: VendorEvidenceSums = {
  catalogSize: 0,
  currentPeptides: 0,
  approvedBatches: 0,
  newestTestedAt: null,
  oldestTestedAt: null,
  withSourceUrl: 0,
  withTrustedLab: 0,
  purityWeight: 0,
  purityWeightedSum: 0,
  purityWeightedSquares: 0,
  reviews: 0,
  reviewWeight: 0,
  reviewWeightedRatings: 0,
  oldestReviewAt: null,
  approvedPuritySum: 0,
  approvedPurityCount: 0,
  hasLocation: false,
  hasDescription: false,
  hasWebsite: false,
  claimed: false,
  verifiedAt: null,
};

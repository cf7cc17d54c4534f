import type { ExtractedFields } from '../coa/model.ts';
import type { Note, VerificationStatus } from '../coa/verification.ts';
import type { OverrideField } from '../import/records.ts';
import type { ListingPlan, PartialPillars, Pillars } from '../vendors/model.ts';

/**
 * Who did it: an operator name given to the operator API or CLI, or the console's signed-in email;
 * kept with overrides and in the decision log. 1 to 254 printable ASCII characters (actor.ts).
 */
export type Actor = string;

export interface OverrideEntry {
  vendorSlug: string;
  field: OverrideField;
  value: number;
  reason: string;
  setBy: string;
  setAt: string;
}

export interface HistoryEntry {
  score: number;
  reason: string;
  recordedAt: string;
}

/** Everything an operator sees about a vendor: stored flags, computed and effective values. */
export interface VendorAdminView {
  slug: string;
  name: string;
  verified: boolean;
  /** The operator's flag; the public `pending` is also true while the vendor is unscored. */
  pending: boolean;
  verifiedAt: string | null;
  listingPlan: ListingPlan;
  ownerAccount: string | null;
  /** Pillars computed from evidence (null: too little evidence). */
  computed: PartialPillars;
  /** After overrides; null when unscored. */
  pillars: Pillars | null;
  score: number | null;
  overrides: OverrideEntry[];
  /** Newest last. */
  history: HistoryEntry[];
}

export interface ReviewFacts {
  id: string;
  vendorSlug: string;
  ownerAccount: string | null;
  hasReply: boolean;
}

/** A CoA upload that queued or joined a pending submission: what the reviewer reads. */
export interface UploadSummary {
  verificationId: string;
  account: string;
  uploadedAt: string;
  status: VerificationStatus;
  confidence: number;
  notes: Note[];
  /** What the document states (null: it could not be read). */
  extracted: ExtractedFields | null;
  sha256: string;
  /** Where the PDF is kept (COA_STORE_FILES), relative to COA_FILE_DIR; null when not kept. */
  filePath: string | null;
}

export interface BatchAdminView {
  vendorSlug: string;
  batchId: string;
  peptideSlug: string;
  status: 'approved' | 'pending' | 'rejected';
  purity: number | null;
  lab: string | null;
  testMethod: string | null;
  testedAt: string | null;
  source: string | null;
  sourceUrl: string | null;
  submittedAt: string | null;
  /** In the pending list: the CoA uploads of this submission, oldest first (the first 20). */
  uploads?: UploadSummary[];
  /** In the pending list: how many CoA uploads the submission has in all. */
  uploadsTotal?: number;
}

/** What one operator write changed in the scores (the events are in the outbox). */
export interface WriteOutcome {
  /** Composite changes, one per vendor whose score moved. */
  scoreChanges: { vendorSlug: string; previous: number | null; next: number }[];
}

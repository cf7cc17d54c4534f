export type BatchStatus = 'approved' | 'pending' | 'rejected';

/**
 * The longest batch number, in characters after NFKC normalisation and trimming: one limit for the
 * import format, the lookup and its OpenAPI schema (which all read it from here).
 */
export const MAX_BATCH_ID_LENGTH = 128;

/** A stored batch record joined with its vendor, peptide and lab. */
export interface BatchRecord {
  batchId: string;
  status: BatchStatus;
  vendorSlug: string;
  vendorName: string;
  vendorVerified: boolean;
  peptideName: string;
  purity: number | null;
  labName: string | null;
  testMethod: string | null;
  testedAt: string | null;
  source: string | null;
  sourceUrl: string | null;
  submittedAt: string | null;
}

interface Tested {
  batchId: string;
  peptideName: string;
  vendorSlug: string;
  vendorName: string;
  vendorVerified: boolean;
  purity: number;
  lab: string;
  testMethod: string;
  testedAt: string;
  ageDays: number;
  source: string;
  sourceUrl: string;
}

/** The answer of a batch lookup: a union discriminated by `state`. */
export type BatchVerification =
  | ({ state: 'verified' } & Tested)
  | ({ state: 'stale' } & Tested)
  | {
      state: 'pending';
      batchId: string;
      peptideName: string;
      vendorSlug: string;
      vendorName: string;
      vendorVerified: boolean;
      submittedAt: string;
    }
  | { state: 'missing'; batchId: string };

/**
 * What the batch lookup use case hands a presenter: the answer, and the first moment (epoch ms)
 * at which the same lookup could answer differently without any data changing (`ageDays` moves,
 * or `verified` turns `stale`). `Infinity` when only a data change can alter it.
 */
export interface BatchLookup {
  answer: BatchVerification;
  validUntil: number;
}

import type { ExtractedFields, PdfMetadata, UnreadableReason } from './model.ts';

export type VerificationStatus = 'verified' | 'mismatch' | 'rejected' | 'pending_review' | 'unreadable';

/** Every note the verifier can write; docs/methodology.md lists them with their meaning. */
export type NoteCode =
  // The document could not be read (status unreadable).
  | 'unreadable_encrypted'
  | 'unreadable_corrupt'
  | 'unreadable_no_text'
  | 'unreadable_too_many_pages'
  | 'unreadable_time_limit'
  | 'unreadable_memory_limit'
  | 'unreadable_inflate_limit'
  | 'fields_missing'
  // Forgery signals (status rejected).
  | 'purity_impossible'
  | 'test_date_future'
  | 'lab_flagged'
  | 'lab_self_issued'
  | 'batch_other_vendor'
  | 'batch_other_peptide'
  | 'batch_rejected_on_file'
  // Contradictions (status mismatch).
  | 'compound_mismatch'
  | 'batch_mismatch'
  | 'purity_differs'
  | 'lab_differs'
  | 'test_date_differs'
  // Corroboration and context.
  | 'record_corroborates'
  | 'record_stale'
  | 'no_record'
  | 'submission_queued'
  | 'submission_exists'
  | 'submission_differs'
  | 'vendor_unknown'
  | 'vendor_inferred'
  | 'client_other_vendor'
  | 'lab_unknown'
  | 'lab_untrusted'
  | 'test_date_missing'
  | 'test_date_ambiguous'
  | 'compound_unknown'
  // PDF metadata (notes only: they lower confidence, they do not decide).
  | 'pdf_editing_software'
  | 'pdf_modified_after_test';

export interface Note {
  code: NoteCode;
  message: string;
}

/** The form fields of an upload, as validated by the route. */
export interface CoaRequest {
  /** Peptide slug, name or alias. */
  peptide: string;
  batchId: string | null;
  /** Vendor slug. */
  vendor: string | null;
}

/** A batch submission the verification queued or joined for operator review. */
export interface QueuedSubmission {
  vendorSlug: string;
  batchId: string;
}

/** What the verifier decided about one upload (stored as decided; presenters shape it). */
export interface VerificationOutcome {
  status: VerificationStatus;
  /** 0..1, how strongly the evidence supports `status` (docs/methodology.md). */
  confidence: number;
  peptideMatch: boolean;
  /** The purity as the document prints it, when it prints one. */
  purityClaim: string | null;
  purityVerified: boolean;
  notes: Note[];
  /** What the document states; null when it could not be read. */
  extracted: ExtractedFields | null;
  labVerificationUrl: string | null;
  /** The peptide of the request (slug), the vendor the verification is about, when known. */
  peptideSlug: string;
  vendorSlug: string | null;
  submission: QueuedSubmission | null;
  /** The request it answers (peptide and vendor as slugs), kept so it can be decided again. */
  request?: CoaRequest;
}

/** An operator's decision on the submission a verification queued. */
export interface ReviewState {
  state: 'pending' | 'approved' | 'rejected';
  vendorSlug: string;
  batchId: string;
}

/** A stored verification as its account reads it back. */
export interface Verification extends VerificationOutcome {
  id: string;
  createdAt: string;
  /** The submission's review state now (it can change after the verification). */
  review: ReviewState | null;
}

/** What a document yielded, kept by SHA-256 so the same file is never parsed twice. */
export type Extraction =
  | { ok: true; fields: ExtractedFields; metadata: PdfMetadata; pageCount: number }
  | { ok: false; reason: DocumentFailure };

/** Why a document is unreadable (`busy` is the service's state, not the document's). */
export type DocumentFailure = Exclude<UnreadableReason, 'busy'>;

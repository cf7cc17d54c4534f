import type { NoteCode, VerificationStatus } from './verification.ts';

/**
 * Confidence: how strongly the evidence supports the status returned, 0..1. Each signal that
 * supports the status has a weight w (how often, on its own, it makes the status right); signals
 * combine as independent evidence (noisy-OR: 1 − Π(1 − w)). Caution notes then scale the result
 * down by Π(1 − p). docs/methodology.md shows the table; the weights are judgement, set so that
 * one decisive signal lands at 0.8–0.95 and corroboration on every fact approaches 0.99. They are
 * to be refit once operator review outcomes give labelled data.
 */
const SUPPORT: Partial<Record<NoteCode, number>> = {
  // rejected
  purity_impossible: 0.95,
  test_date_future: 0.9,
  lab_flagged: 0.9,
  batch_other_peptide: 0.85,
  batch_other_vendor: 0.8,
  batch_rejected_on_file: 0.8,
  lab_self_issued: 0.75,
  // mismatch
  compound_mismatch: 0.9,
  batch_mismatch: 0.9,
  purity_differs: 0.85,
  lab_differs: 0.85,
  test_date_differs: 0.7,
};

/** Caution notes: they make any verdict other than rejected less certain. */
const CAUTION: Partial<Record<NoteCode, number>> = {
  pdf_editing_software: 0.25,
  pdf_modified_after_test: 0.15,
  lab_untrusted: 0.15,
  lab_unknown: 0.2,
  test_date_missing: 0.1,
  test_date_ambiguous: 0.05,
  record_stale: 0.05,
  vendor_inferred: 0.05,
  client_other_vendor: 0.1,
  submission_differs: 0.2,
};

/** What a verified document's corroborated facts weigh. */
export const CORROBORATION = {
  /** An approved record of this batch for this vendor exists. */
  record: 0.6,
  peptide: 0.3,
  lab: 0.4,
  purity: 0.5,
  testDate: 0.3,
  /** The lab is trusted in the registry. */
  trustedLab: 0.2,
} as const;

/** An uncorroborated but plausible document (pending_review) starts here. */
const PLAUSIBLE = 0.5;

const noisyOr = (ws: readonly number[]): number => 1 - ws.reduce((acc, w) => acc * (1 - w), 1);

const round = (x: number): number => Math.round(Math.min(0.99, Math.max(0, x)) * 100) / 100;

export function confidenceOf(
  status: VerificationStatus,
  notes: readonly NoteCode[],
  corroborated: readonly number[] = [],
): number {
  if (status === 'unreadable') return 0;
  const caution = notes.reduce((acc, n) => acc * (1 - (CAUTION[n] ?? 0)), 1);
  if (status === 'rejected') {
    // Metadata that suggests editing strengthens a forgery verdict instead of weakening it.
    const ws = notes.map((n) => SUPPORT[n] ?? (CAUTION[n] !== undefined && n.startsWith('pdf_') ? 0.3 : 0));
    return round(noisyOr(ws));
  }
  if (status === 'mismatch') return round(noisyOr(notes.map((n) => SUPPORT[n] ?? 0)));
  if (status === 'verified') return round(noisyOr(corroborated) * caution);
  // pending_review: plausible, with what the document and registry add.
  return round(noisyOr([PLAUSIBLE, ...corroborated]) * caution);
}

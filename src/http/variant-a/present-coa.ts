import type { Verification } from '../../core/coa/verification.ts';

/** Variant A's CoA verification result: the spec's fields, then ours (snake_case, never null where typed). */
export function presentVerification(v: Verification) {
  const f = v.extracted;
  return {
    verification_id: v.id,
    status: v.status,
    confidence: v.confidence,
    peptide_match: v.peptideMatch,
    ...(v.purityClaim !== null ? { purity_claim: v.purityClaim } : {}),
    purity_verified: v.purityVerified,
    notes: v.notes.map((n) => ({ code: n.code, message: n.message })),
    extracted: {
      lab: f?.lab ?? null,
      batch: f?.batch ?? null,
      compound: f?.compound ?? null,
      test_date: f?.testDate?.iso ?? null,
      test_date_text: f?.testDate?.text ?? null,
      method: f?.method ?? null,
      purity: f?.purity ?? null,
      quantity: f?.quantity ?? null,
      label_claim: f?.labelClaim ?? null,
      identity: f?.identity ?? null,
      client: f?.client ?? null,
      verification_key: f?.verificationKey ?? null,
      verification_url: f?.verificationUrl ?? null,
    },
    ...(v.labVerificationUrl !== null ? { lab_verification_url: v.labVerificationUrl } : {}),
    peptide: v.peptideSlug,
    ...(v.vendorSlug !== null ? { vendor: v.vendorSlug } : {}),
    ...(v.review
      ? { review: { state: v.review.state, vendor: v.review.vendorSlug, batch_id: v.review.batchId } }
      : {}),
    created_at: v.createdAt,
  };
}

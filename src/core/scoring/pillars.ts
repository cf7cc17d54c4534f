import { DAY_MS } from '../clock.ts';
import type { PartialPillars } from '../vendors/model.ts';
import type { VendorEvidenceSums } from './evidence.ts';
import { DEFAULT_METHOD, type MethodParams } from './method.ts';

/**
 * The pillars of method v1 (docs/methodology.md), each a pure function of the evidence sums and
 * the time of computation. Every pillar is an integer 0..100, rounded half up.
 */

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Round half up, robust to binary fractions (84.4999999 from 84.5 still rounds up). */
export const roundScore = (x: number): number => {
  const r = Math.floor(x + 0.5 + 1e-9);
  return r < 0 ? 0 : r > 100 ? 100 : r;
};

const ageDays = (nowMs: number, iso: string): number => Math.max(0, (nowMs - Date.parse(iso)) / DAY_MS);

/** coverage of the catalog by current CoAs, plus how fresh the newest CoA is. */
export function coaPillar(e: VendorEvidenceSums, nowMs: number, m: MethodParams = DEFAULT_METHOD): number {
  const coverage = e.catalogSize === 0 ? 0 : e.currentPeptides / e.catalogSize;
  let recency = 0;
  if (e.newestTestedAt !== null) {
    const age = ageDays(nowMs, e.newestTestedAt);
    // Full up to freshDays, nothing past staleAfterDays, linear between (tested on its own so a
    // stale limit configured below freshDays cannot turn the slope around).
    if (age > m.staleAfterDays) recency = 0;
    else if (age <= m.coa.freshDays) recency = 1;
    else recency = clamp01(1 - (age - m.coa.freshDays) / (m.staleAfterDays - m.coa.freshDays));
  }
  const w = m.coa.coverageWeight;
  return roundScore(100 * (w * coverage + (1 - w) * recency));
}

/**
 * Weighted mean tested purity over the window, mapped linearly from floorPercent (0) to 100 %
 * (100), less a penalty for inconsistency (the weighted standard deviation). No batch in the
 * window: 0, since there is no current evidence of purity.
 */
export function purityPillar(e: VendorEvidenceSums, m: MethodParams = DEFAULT_METHOD): number {
  if (e.purityWeight <= 0) return 0;
  const mean = e.purityWeightedSum / e.purityWeight;
  const variance = Math.max(0, e.purityWeightedSquares / e.purityWeight - mean * mean);
  // E[p²] − mean² leaves float noise (~1e-12) when every purity is equal; that noise must not
  // become a penalty that tips a .5 the wrong way. Real spreads are orders of magnitude larger.
  const sd = variance < 1e-9 ? 0 : Math.sqrt(variance);
  const level = (100 * (mean - m.purity.floorPercent)) / (100 - m.purity.floorPercent);
  return roundScore(level - m.purity.spreadPenalty * sd);
}

/** Bayesian average of the age-weighted ratings, shrunk toward the prior; 1★ → 0, 5★ → 100. */
export function sentimentPillar(e: VendorEvidenceSums, m: MethodParams = DEFAULT_METHOD): number {
  const { priorMean, priorWeight } = m.sentiment;
  const stars = (priorWeight * priorMean + e.reviewWeightedRatings) / (priorWeight + e.reviewWeight);
  return roundScore(((stars - 1) / 4) * 100);
}

/** Share of approved batches with a public CoA link and with a trusted lab, and profile facts. */
export function transparencyPillar(e: VendorEvidenceSums, m: MethodParams = DEFAULT_METHOD): number {
  const n = e.approvedBatches;
  const url = n === 0 ? 0 : e.withSourceUrl / n;
  const lab = n === 0 ? 0 : e.withTrustedLab / n;
  const facts = [e.hasLocation, e.hasDescription, e.hasWebsite, e.claimed].filter(Boolean).length / 4;
  const t = m.transparency;
  return roundScore(100 * (t.sourceUrlWeight * url + t.trustedLabWeight * lab + t.profileWeight * facts));
}

/**
 * Time on record (since the earliest of: verification, oldest tested batch, oldest review) and
 * volume of evidence (approved batches + reviews, on a log scale).
 */
export function experiencePillar(
  e: VendorEvidenceSums,
  nowMs: number,
  m: MethodParams = DEFAULT_METHOD,
): number {
  const starts = [e.verifiedAt, e.oldestTestedAt, e.oldestReviewAt].filter((x): x is string => x !== null);
  const since =
    starts.length === 0 ? null : starts.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
  const time = since === null ? 0 : clamp01(ageDays(nowMs, since) / m.experience.fullTimeDays);
  const items = e.approvedBatches + e.reviews;
  const volume = clamp01(Math.log10(1 + items) / Math.log10(1 + m.experience.fullVolume));
  const w = m.experience.timeWeight;
  return roundScore(100 * (w * time + (1 - w) * volume));
}

/**
 * All five pillars, or all null when the vendor has too little evidence to be scored (fewer
 * approved, tested batches than the method asks for): it is then unscored rather than guessed.
 */
export function computePillars(
  e: VendorEvidenceSums,
  nowMs: number,
  m: MethodParams = DEFAULT_METHOD,
): PartialPillars {
  if (e.approvedBatches < m.minApprovedBatches) {
    return { coa: null, purity: null, sentiment: null, transparency: null, experience: null };
  }
  return {
    coa: coaPillar(e, nowMs, m),
    purity: purityPillar(e, m),
    sentiment: sentimentPillar(e, m),
    transparency: transparencyPillar(e, m),
    experience: experiencePillar(e, nowMs, m),
  };
}

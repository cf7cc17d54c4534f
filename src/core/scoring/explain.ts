import type { PartialPillars, Pillar, Pillars, Vendor } from '../vendors/model.ts';
import { PILLARS } from '../vendors/model.ts';
import { compositeOf, effectiveScore, type OverrideMap, tierOf } from './composite.ts';
import type { VendorEvidenceSums } from './evidence.ts';
import { METHOD_VERSION, type MethodParams } from './method.ts';
import { computePillars } from './pillars.ts';

/** One pillar's part in a composite: its value, its weight and the points it contributes. */
export interface PillarPart {
  pillar: Pillar;
  value: number;
  /** The pillar's share of the weights (weights / their sum). */
  weight: number;
  /** value × weight, unrounded: the parts sum to the composite before rounding. */
  points: number;
  /** What the evidence gives the pillar now (null: too little evidence to score). */
  computed: number | null;
  /** The operator's override of the pillar, if any (it wins over `computed`). */
  override: number | null;
  /** How the method computes the pillar, with this method's parameters filled in. */
  how: string;
}

/** What the scoring engine reads for the vendor (CatalogStore.scoreInputs), and when. */
export interface ScoreInputs {
  evidence: VendorEvidenceSums;
  overrides: OverrideMap;
  nowMs: number;
}

export interface ScoreExplanation {
  methodVersion: string;
  slug: string;
  name: string;
  /** Null when the vendor has too little evidence to be scored. */
  score: number | null;
  tier: string | null;
  parts: PillarPart[];
  /** The weighted mean of the pillars, rounded half up; differs from `score` only when an operator pinned it. */
  composite: number | null;
  /** True when an operator override pins the composite (the pillars may be overridden too: docs/methodology.md). */
  scorePinned: boolean;
  minApprovedBatches: number;
  /** The engine's inputs, and what it computes from them now. */
  evidence: VendorEvidenceSums;
  overrides: OverrideMap;
  computedAt: string;
  /**
   * The score the engine gives from the evidence at `computedAt`. It differs from the published
   * `score` only when time has aged the evidence since the last recomputation (a nightly
   * `purerank scores recompute` or any write touching the vendor publishes it).
   */
  recomputedScore: number | null;
}

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** Each pillar's rule in words, from the method's own parameters (docs/methodology.md, Pillar formulas). */
export function pillarRules(m: MethodParams): Record<Pillar, string> {
  return {
    coa:
      `${pct(m.coa.coverageWeight)} coverage of the vendor's catalog by current (tested within ` +
      `${m.staleAfterDays} days) approved CoAs, ${pct(1 - m.coa.coverageWeight)} recency of the newest CoA ` +
      `(full up to ${m.coa.freshDays} days, none after ${m.staleAfterDays}).`,
    purity:
      `Mean tested purity of approved batches tested within ${m.purity.windowDays} days, weighted by lab trust ` +
      `(an untrusted lab's batch weighs ${m.purity.untrustedWeight}), mapped from ${m.purity.floorPercent}% (0) ` +
      `to 100% (100), less ${m.purity.spreadPenalty} points per percentage point of standard deviation.`,
    sentiment:
      `Bayesian average of review ratings shrunk toward ${m.sentiment.priorMean}★ with the weight of ` +
      `${m.sentiment.priorWeight} reviews; reviews weigh 1 up to ${m.sentiment.recentDays} days, ` +
      `${m.sentiment.midWeight} up to ${m.sentiment.yearDays}, ${m.sentiment.oldWeight} older; 1★ → 0, 5★ → 100.`,
    transparency:
      `${pct(m.transparency.sourceUrlWeight)} share of approved batches with a public CoA link, ` +
      `${pct(m.transparency.trustedLabWeight)} share tested by a trusted lab, ` +
      `${pct(m.transparency.profileWeight)} profile facts (location, description, website, claimed).`,
    experience:
      `${pct(m.experience.timeWeight)} time on record (full at ${m.experience.fullTimeDays} days), ` +
      `${pct(1 - m.experience.timeWeight)} volume of evidence (approved batches + reviews, log scale, full at ` +
      `${m.experience.fullVolume}).`,
  };
}

/**
 * How a vendor's score is made of its pillars under the method in force: each published pillar's
 * value, weight and points, what the evidence gives it now and any override, and whether an override
 * pins the composite. Everything is computed by the engine's own functions (computePillars,
 * effectiveScore, compositeOf) from the inputs the recomputation reads: nothing here re-states a rule.
 */
export function explainScore(v: Vendor, m: MethodParams, inputs: ScoreInputs): ScoreExplanation {
  const rules = pillarRules(m);
  const pillars: Pillars | null = v.pillars;
  const computed: PartialPillars = computePillars(inputs.evidence, inputs.nowMs, m);
  const total = PILLARS.reduce((sum, p) => sum + m.weights[p], 0);
  const parts: PillarPart[] =
    pillars === null
      ? []
      : PILLARS.map((p) => ({
          pillar: p,
          value: pillars[p],
          weight: m.weights[p] / total,
          points: (pillars[p] * m.weights[p]) / total,
          computed: computed[p],
          override: inputs.overrides[p] ?? null,
          how: rules[p],
        }));
  const composite = pillars === null ? null : compositeOf(pillars, m.weights);
  return {
    methodVersion: METHOD_VERSION,
    slug: v.slug,
    name: v.name,
    score: v.score,
    tier: v.score === null ? null : tierOf(v.score),
    parts,
    composite,
    scorePinned: inputs.overrides.score !== undefined,
    minApprovedBatches: m.minApprovedBatches,
    evidence: inputs.evidence,
    overrides: inputs.overrides,
    computedAt: new Date(inputs.nowMs).toISOString(),
    recomputedScore: effectiveScore(computed, inputs.overrides, m.weights).score,
  };
}

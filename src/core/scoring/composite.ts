import { type PartialPillars, PILLARS, type Pillar, type Pillars, type Tier } from '../vendors/model.ts';
import { DEFAULT_METHOD } from './method.ts';

/** Pillar weights of the method (docs/methodology.md). They sum to 1. */
export const DEFAULT_WEIGHTS: Readonly<Record<Pillar, number>> = DEFAULT_METHOD.weights;

export type OverrideMap = Partial<Record<Pillar | 'score', number>>;

export interface EffectiveScore {
  /** Every pillar after overrides, or null when any pillar has neither evidence nor override. */
  pillars: Pillars | null;
  /** Composite (a score override wins); null when unscored. */
  score: number | null;
}

/**
 * Applies overrides after computation and derives the composite: the weighted mean of the five
 * pillars, rounded half up to an integer. A vendor is scored only when every pillar has a value;
 * a `score` override pins the composite but does not make an unscored vendor's pillars appear.
 */
export function effectiveScore(
  computed: PartialPillars,
  overrides: OverrideMap,
  weights: Readonly<Record<Pillar, number>> = DEFAULT_WEIGHTS,
): EffectiveScore {
  const out = {} as Pillars;
  for (const p of PILLARS) {
    const v = overrides[p] ?? computed[p];
    if (v === null || v === undefined) return { pillars: null, score: null };
    out[p] = v;
  }
  const pinned = overrides.score;
  return { pillars: out, score: pinned ?? compositeOf(out, weights) };
}

export function compositeOf(
  pillars: Pillars,
  weights: Readonly<Record<Pillar, number>> = DEFAULT_WEIGHTS,
): number {
  let sum = 0;
  let total = 0;
  for (const p of PILLARS) {
    sum += pillars[p] * weights[p];
    total += weights[p];
  }
  // Round on a value nudged by a tiny epsilon so 84.5 computed as 84.49999999 still rounds up.
  return Math.floor(sum / total + 0.5 + 1e-9);
}

/** Tier band of a composite (DESIGN.md §4). */
export function tierOf(score: number): Tier {
  if (score >= 90) return 'platinum';
  if (score >= 80) return 'gold';
  if (score >= 70) return 'silver';
  return 'bronze';
}

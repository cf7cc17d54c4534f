import type { Pillars } from '../vendors/model.ts';

/** A composite that changed in one recomputation (a history entry was appended for it). */
export interface ScoreChange {
  slug: string;
  /** null when the vendor was unscored before. */
  previous: number | null;
  next: number;
  previousPillars: Pillars | null;
  nextPillars: Pillars | null;
}

/** What one recomputation did; its events are built by core/events/score-events.ts. */
export interface RecomputeResult {
  /** Vendors recomputed. */
  vendors: number;
  /** Vendors whose stored values changed. */
  updated: number;
  /** Composite changes (one history entry each). */
  changes: ScoreChange[];
}

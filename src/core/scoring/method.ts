import { DAY_MS } from '../clock.ts';
import type { Pillar } from '../vendors/model.ts';

/**
 * The published parameters of the scoring method (docs/methodology.md). A change to any of them
 * is a new method version: scores are only comparable within one version.
 */
export const METHOD_VERSION = '1.0';

export interface MethodParams {
  /** Composite weights; they need not sum to 1 (the composite divides by their sum). */
  weights: Readonly<Record<Pillar, number>>;
  /** A batch tested more than this many days ago is stale (the batch lookup's rule). */
  staleAfterDays: number;
  /** Approved, tested batches a vendor needs before it is scored from evidence. */
  minApprovedBatches: number;
  coa: {
    /** Share of the pillar given by catalog coverage; the rest by recency of the newest CoA. */
    coverageWeight: number;
    /** The newest CoA counts fully up to this age (days) and nothing from staleAfterDays on. */
    freshDays: number;
  };
  purity: {
    /** Batches tested within this many days count. */
    windowDays: number;
    /** Mean purity (percent) that scores 0; 100 % scores 100, linearly between. */
    floorPercent: number;
    /** Points taken per percentage point of (weighted) standard deviation. */
    spreadPenalty: number;
    /** Weight of a batch whose lab is not trusted (or not named); a trusted lab's batch weighs 1. */
    untrustedWeight: number;
  };
  sentiment: {
    /** Prior mean rating (stars) that a vendor's reviews are shrunk toward. */
    priorMean: number;
    /** Weight of the prior, in reviews. */
    priorWeight: number;
    /** Review weight by age: up to `recentDays` 1, up to `yearDays` `midWeight`, older `oldWeight`. */
    recentDays: number;
    yearDays: number;
    midWeight: number;
    oldWeight: number;
  };
  transparency: { sourceUrlWeight: number; trustedLabWeight: number; profileWeight: number };
  experience: {
    /** Time on record that earns the full time share, days. */
    fullTimeDays: number;
    /** Evidence items (approved batches + reviews) that earn the full volume share. */
    fullVolume: number;
    timeWeight: number;
  };
}

export const DEFAULT_METHOD: MethodParams = {
  weights: { coa: 0.3, purity: 0.25, sentiment: 0.15, transparency: 0.15, experience: 0.15 },
  staleAfterDays: 150,
  minApprovedBatches: 1,
  coa: { coverageWeight: 0.7, freshDays: 30 },
  purity: { windowDays: 365, floorPercent: 90, spreadPenalty: 10, untrustedWeight: 0.25 },
  sentiment: {
    priorMean: 3.5,
    priorWeight: 5,
    recentDays: 180,
    yearDays: 365,
    midWeight: 0.5,
    oldWeight: 0.25,
  },
  transparency: { sourceUrlWeight: 0.4, trustedLabWeight: 0.4, profileWeight: 0.2 },
  experience: { fullTimeDays: 3 * 365, fullVolume: 100, timeWeight: 0.6 },
};

/** The ISO 8601 instants the evidence queries compare against, all derived from one `now`. */
export interface EvidenceCutoffs {
  now: string;
  /** Tested strictly after this: current, i.e. the batch lookup would say `verified`, not `stale`
   *  (stale = more than staleAfterDays whole days old, so current = younger than staleAfterDays + 1). */
  current: string;
  /** Tested at or after this: inside the purity window. */
  purityWindow: string;
  /** Reviews created at or after this weigh 1; at or after `reviewYear`, midWeight. */
  reviewRecent: string;
  reviewYear: string;
}

export function cutoffsOf(nowMs: number, m: MethodParams = DEFAULT_METHOD): EvidenceCutoffs {
  const iso = (days: number) => new Date(nowMs - days * DAY_MS).toISOString();
  return {
    now: new Date(nowMs).toISOString(),
    current: iso(m.staleAfterDays + 1),
    purityWindow: iso(m.purity.windowDays),
    reviewRecent: iso(m.sentiment.recentDays),
    reviewYear: iso(m.sentiment.yearDays),
  };
}

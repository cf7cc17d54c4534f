import { afterEach, describe, expect, it, vi } from 'vitest';
import { ageInDays } from '../../../src/core/batches/batch-state.ts';
import { DAY_MS } from '../../../src/core/clock.ts';
import { compositeOf, effectiveScore, tierOf } from '../../../src/core/scoring/composite.ts';
import { NO_EVIDENCE, type VendorEvidenceSums } from '../../../src/core/scoring/evidence.ts';
import {
  cutoffsOf,
  DEFAULT_METHOD,
  METHOD_VERSION,
  type MethodParams,
} from '../../../src/core/scoring/method.ts';
import {
  coaPillar,
  computePillars,
  experiencePillar,
  purityPillar,
  roundScore,
  sentimentPillar,
  transparencyPillar,
} from '../../../src/core/scoring/pillars.ts';
import type { Pillars } from '../../../src/core/vendors/model.ts';

/**
 * Method v1 (docs/methodology.md). Every expected value below is worked out by hand; the
 * arithmetic is in the comment next to it. Defaults: coa 0.7 coverage / 0.3 recency, fresh 30 d,
 * stale after 150 d; purity floor 90 %, 10 points per point of SD, untrusted weight 0.25;
 * sentiment prior 3.5★ × 5 reviews; transparency 0.4 / 0.4 / 0.2; experience 0.6 time over
 * 1095 d, 0.4 volume over 100 items (log scale).
 */

/** 2026-06-01T12:00:00.000Z, the computation time of every case. */
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
const daysAgo = (d: number): string => new Date(NOW - d * DAY_MS).toISOString();
const ev = (over: Partial<VendorEvidenceSums> = {}): VendorEvidenceSums => ({ ...NO_EVIDENCE, ...over });

/** Purity-window sums of some batches, summed in order as the SQL does: weight 1 (trusted lab) or 0.25. */
function window(...batches: [purity: number, trusted: boolean][]): Partial<VendorEvidenceSums> {
  let purityWeight = 0;
  let purityWeightedSum = 0;
  let purityWeightedSquares = 0;
  for (const [p, trusted] of batches) {
    const w = trusted ? 1 : DEFAULT_METHOD.purity.untrustedWeight;
    purityWeight += w;
    purityWeightedSum += w * p;
    purityWeightedSquares += w * p * p;
  }
  return { purityWeight, purityWeightedSum, purityWeightedSquares };
}

const NULLS = { coa: null, purity: null, sentiment: null, transparency: null, experience: null };

describe('method v1 parameters (as published in docs/methodology.md)', () => {
  it('has the documented version and values', () => {
    expect(METHOD_VERSION).toBe('1.0');
    expect(DEFAULT_METHOD).toEqual({
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
      experience: { fullTimeDays: 1095, fullVolume: 100, timeWeight: 0.6 },
    });
  });

  it('derives every cutoff from the one computation time', () => {
    expect(cutoffsOf(NOW)).toEqual({
      now: '2026-06-01T12:00:00.000Z',
      // 150 + 1 = 151 days before (31 + 28 + 31 + 30 + 31 = 151: 1 January); current = tested strictly after
      current: '2026-01-01T12:00:00.000Z',
      // 365 days before
      purityWindow: '2025-06-01T12:00:00.000Z',
      // 180 and 365 days before
      reviewRecent: '2025-12-03T12:00:00.000Z',
      reviewYear: '2025-06-01T12:00:00.000Z',
    });
  });

  it('calls a batch current exactly when the batch lookup does not call it stale', () => {
    const current = Date.parse(cutoffsOf(NOW).current);
    // Tested exactly 151 days ago: lookup age 151 > 150 → stale; SQL `tested_at > current` → not current.
    expect(ageInDays(new Date(current).toISOString(), NOW)).toBe(151);
    // One millisecond later: age floor(150.99…) = 150 → verified; and tested_at > current.
    expect(ageInDays(new Date(current + 1).toISOString(), NOW)).toBe(150);
  });
});

describe('roundScore', () => {
  it.each([
    [84.5, 85], // exactly .5 rounds up
    [84.49999999999999, 85], // 84.5 computed in floating point still rounds up
    [84.4999, 84], // really below .5 rounds down
    [0.5, 1],
    [99.5, 100],
    [-0.4, 0], // clamped at 0
    [-37, 0],
    [100.4, 100],
    [100.7, 100], // would round to 101: clamped at 100
    [250, 100],
  ])('%d → %i', (x, expected) => {
    expect(roundScore(x)).toBe(expected);
  });
});

describe('coa pillar: 100 × (0.7 × coverage + 0.3 × recency)', () => {
  it('full coverage, CoA within 30 days → 100', () => {
    // coverage 5/5 = 1; age 10 d ≤ 30 → recency 1; 100 × (0.7 + 0.3) = 100
    expect(coaPillar(ev({ catalogSize: 5, currentPeptides: 5, newestTestedAt: daysAgo(10) }), NOW)).toBe(100);
  });

  it('recency falls linearly from 30 days to 0 at 150 days', () => {
    const at = (d: number) =>
      coaPillar(ev({ catalogSize: 2, currentPeptides: 1, newestTestedAt: daysAgo(d) }), NOW);
    // coverage 1/2 → 35; recency at 30 d = 1 → 35 + 30 = 65
    expect(at(30)).toBe(65);
    // recency at 90 d = 1 − 60/120 = 0.5 → 35 + 15 = 50
    expect(at(90)).toBe(50);
    // recency at 120 d = 1 − 90/120 = 0.25 → 35 + 7.5 = 42.5 → 43 (half up)
    expect(at(120)).toBe(43);
    // recency at 150 d = 0 → 35
    expect(at(150)).toBe(35);
    // recency at 400 d clamps at 0 (not −2.08) → 35
    expect(at(400)).toBe(35);
  });

  it('counts a timestamp in the future (clock skew) as age 0', () => {
    // age max(0, −1) = 0 → recency 1; coverage 0 → 30
    expect(coaPillar(ev({ catalogSize: 1, newestTestedAt: new Date(NOW + DAY_MS).toISOString() }), NOW)).toBe(
      30,
    );
  });

  it('rounds a value of exactly .5 up', () => {
    // coverage 1/4 → 0.7 × 0.25 = 0.175 → 17.5; recency 0 (200 d) → 17.5 → 18
    expect(coaPillar(ev({ catalogSize: 4, currentPeptides: 1, newestTestedAt: daysAgo(200) }), NOW)).toBe(18);
  });

  it('empty catalog: coverage 0, recency only', () => {
    // 0.7 × 0 + 0.3 × 1 = 0.3 → 30
    expect(coaPillar(ev({ catalogSize: 0, newestTestedAt: daysAgo(5) }), NOW)).toBe(30);
    // no batch at all: 0
    expect(coaPillar(NO_EVIDENCE, NOW)).toBe(0);
  });

  it('all CoAs stale: coverage 0 and recency 0 → 0', () => {
    // newest 160 d: not current (> 150 whole days) and recency 0
    expect(coaPillar(ev({ catalogSize: 3, currentPeptides: 0, newestTestedAt: daysAgo(160) }), NOW)).toBe(0);
  });

  it('honours custom parameters', () => {
    const m: MethodParams = {
      ...DEFAULT_METHOD,
      coa: { coverageWeight: 0.5, freshDays: 10 },
      staleAfterDays: 60,
    };
    // coverage 1/2 → 0.5 × 0.5 = 0.25; recency at 35 d = 1 − 25/50 = 0.5 → 0.25; 100 × 0.5 = 50
    expect(coaPillar(ev({ catalogSize: 2, currentPeptides: 1, newestTestedAt: daysAgo(35) }), NOW, m)).toBe(
      50,
    );
  });
});

describe('purity pillar: 10 × (weighted mean − 90) − 10 × weighted SD', () => {
  it('one trusted batch at 99.2 % → 92', () => {
    // mean 99.2, SD 0; level 100 × 9.2 / 10 = 92
    expect(purityPillar(ev(window([99.2, true])))).toBe(92);
  });

  it('two trusted batches, 99 and 97 → 70', () => {
    // mean 98 → level 80; 99² = 9801, 97² = 9409, mean of squares 9605, 98² = 9604
    // variance 1, SD 1 → penalty 10; 80 − 10 = 70
    expect(purityPillar(ev(window([99, true], [97, true])))).toBe(70);
  });

  it('a fabricated (untrusted) lab weighs 0.25 against a trusted lab’s 1', () => {
    // trusted 99.0 (w 1), untrusted 91.0 (w 0.25): W 1.25, ΣwP = 99 + 22.75 = 121.75, mean 97.4
    // Σwp² = 9801 + 0.25 × 8281 = 11871.25; /1.25 = 9497; variance 9497 − 97.4² (9486.76) = 10.24; SD 3.2
    // level 10 × 7.4 = 74; 74 − 32 = 42
    expect(purityPillar(ev(window([99, true], [91, false])))).toBe(42);
    // Were the lab trusted: mean 95 → level 50; variance (9801 + 8281)/2 − 9025 = 16, SD 4 → 50 − 40 = 10
    expect(purityPillar(ev(window([99, true], [91, true])))).toBe(10);
    // Only untrusted batches: the weight cancels in the mean: one at 96 → level 60, SD 0 → 60
    expect(purityPillar(ev(window([96, false])))).toBe(60);
  });

  it('rounds a value of exactly .5 up (one batch at 99.35 %)', () => {
    // level 10 × 9.35 = 93.5 → 94 (9.35 is 9.3499999… in binary; the rounding epsilon absorbs it)
    expect(purityPillar(ev(window([99.35, true])))).toBe(94);
  });

  it('clamps at 0 and 100', () => {
    // mean 100, SD 0 → 100
    expect(purityPillar(ev(window([100, true], [100, true])))).toBe(100);
    // below the floor: mean 85 → level −50 → 0
    expect(purityPillar(ev(window([85, true])))).toBe(0);
    // exactly the floor → 0
    expect(purityPillar(ev(window([90, true])))).toBe(0);
    // a wide spread: 100 and 88 → mean 94, level 40; SD 6 → 40 − 60 = −20 → 0
    expect(purityPillar(ev(window([100, true], [88, true])))).toBe(0);
    // sums that would mean more than 100 % still give 100
    expect(purityPillar(ev({ purityWeight: 1, purityWeightedSum: 101, purityWeightedSquares: 10201 }))).toBe(
      100,
    );
  });

  it('no batch in the 365-day window → 0', () => {
    expect(purityPillar(NO_EVIDENCE)).toBe(0);
  });
});

describe('sentiment pillar: 25 × (Bayesian mean stars − 1)', () => {
  it('no reviews: the prior 3.5★ → 62.5 → 63 (half up)', () => {
    // (5 × 3.5 + 0) / (5 + 0) = 3.5; (3.5 − 1) / 4 × 100 = 62.5 → 63
    expect(sentimentPillar(NO_EVIDENCE)).toBe(63);
  });

  it('one 5★ review is shrunk toward the prior', () => {
    // (17.5 + 5) / (5 + 1) = 3.75 → 2.75 / 4 × 100 = 68.75 → 69
    expect(sentimentPillar(ev({ reviews: 1, reviewWeight: 1, reviewWeightedRatings: 5 }))).toBe(69);
  });

  it('an old review weighs a quarter of a recent one', () => {
    // one 1★ review older than a year: weight 0.25; (17.5 + 0.25) / 5.25 = 3.380952… → 59.52 → 60
    expect(sentimentPillar(ev({ reviews: 1, reviewWeight: 0.25, reviewWeightedRatings: 0.25 }))).toBe(60);
    // the same review within 180 days: (17.5 + 1) / 6 = 3.083333… → 52.08 → 52
    expect(sentimentPillar(ev({ reviews: 1, reviewWeight: 1, reviewWeightedRatings: 1 }))).toBe(52);
  });

  it('many reviews outweigh the prior; bounds are 0 and 100', () => {
    // 95 recent 5★: (17.5 + 475) / 100 = 4.925 → 3.925 / 4 × 100 = 98.125 → 98
    expect(sentimentPillar(ev({ reviews: 95, reviewWeight: 95, reviewWeightedRatings: 475 }))).toBe(98);
    // 95 recent 1★: (17.5 + 95) / 100 = 1.125 → 3.125 → 3
    expect(sentimentPillar(ev({ reviews: 95, reviewWeight: 95, reviewWeightedRatings: 95 }))).toBe(3);
    // a prior of weight 0 leaves the plain mean: all 5★ → 100, all 1★ → 0
    const m: MethodParams = { ...DEFAULT_METHOD, sentiment: { ...DEFAULT_METHOD.sentiment, priorWeight: 0 } };
    expect(sentimentPillar(ev({ reviews: 2, reviewWeight: 2, reviewWeightedRatings: 10 }), m)).toBe(100);
    expect(sentimentPillar(ev({ reviews: 2, reviewWeight: 2, reviewWeightedRatings: 2 }), m)).toBe(0);
  });
});

describe('transparency pillar: 100 × (0.4 × URL share + 0.4 × trusted-lab share + 0.2 × profile share)', () => {
  const full = { hasLocation: true, hasDescription: true, hasWebsite: true, claimed: true };

  it('everything → 100; nothing → 0', () => {
    expect(transparencyPillar(ev({ approvedBatches: 3, withSourceUrl: 3, withTrustedLab: 3, ...full }))).toBe(
      100,
    );
    expect(transparencyPillar(NO_EVIDENCE)).toBe(0);
  });

  it('a fabricated lab does not count as a trusted lab', () => {
    // two batches, both with a URL, one at a trusted lab, one at an untrusted lab; no profile
    // 0.4 × 1 + 0.4 × 0.5 + 0 = 0.6 → 60 (80 if both labs were trusted)
    expect(transparencyPillar(ev({ approvedBatches: 2, withSourceUrl: 2, withTrustedLab: 1 }))).toBe(60);
    expect(transparencyPillar(ev({ approvedBatches: 2, withSourceUrl: 2, withTrustedLab: 2 }))).toBe(80);
  });

  it('profile facts count a quarter each', () => {
    // no batches: 0.2 × 3/4 = 0.15 → 15
    expect(transparencyPillar(ev({ hasLocation: true, hasWebsite: true, claimed: true }))).toBe(15);
  });

  it('rounds a value of exactly .5 up', () => {
    // 1 of 16 batches has a URL: 0.4 / 16 = 0.025 → 2.5 → 3
    expect(transparencyPillar(ev({ approvedBatches: 16, withSourceUrl: 1 }))).toBe(3);
  });
});

describe('experience pillar: 100 × (0.6 × time share + 0.4 × volume share)', () => {
  it('time counts from the earliest of verification, oldest test and oldest review', () => {
    // earliest is the review at 876 d: 876 / 1095 = 0.8 → 48; no items → 48
    expect(
      experiencePillar(
        ev({ verifiedAt: daysAgo(100), oldestTestedAt: daysAgo(300), oldestReviewAt: daysAgo(876) }),
        NOW,
      ),
    ).toBe(48);
    // nothing on record: 0
    expect(experiencePillar(NO_EVIDENCE, NOW)).toBe(0);
  });

  it('volume is log10(1 + items) / log10(101)', () => {
    // 10 batches + 0 reviews: log10(11) / log10(101) = 1.041393 / 2.004321 = 0.519574 → 0.4 × … = 20.78 → 21
    expect(experiencePillar(ev({ approvedBatches: 10 }), NOW)).toBe(21);
    // 100 items → 1 → 40
    expect(experiencePillar(ev({ approvedBatches: 40, reviews: 60 }), NOW)).toBe(40);
  });

  it('clamps: more than 3 years and more than 100 items → 100', () => {
    // time 2000 / 1095 → 1; items 500 → 1; 60 + 40 = 100
    expect(experiencePillar(ev({ verifiedAt: daysAgo(2000), approvedBatches: 200, reviews: 300 }), NOW)).toBe(
      100,
    );
    // a verification date in the future counts as today: 0
    expect(experiencePillar(ev({ verifiedAt: new Date(NOW + DAY_MS).toISOString() }), NOW)).toBe(0);
  });

  it('rounds a value of exactly .5 up', () => {
    // 27.375 d / 1095 = 0.025 → 0.6 × 0.025 × 100 = 1.5 → 2
    expect(experiencePillar(ev({ verifiedAt: daysAgo(27.375) }), NOW)).toBe(2);
  });
});

describe('computePillars: minimum evidence', () => {
  it('no approved batch → unscored: every pillar null', () => {
    expect(computePillars(NO_EVIDENCE, NOW)).toEqual(NULLS);
    // reviews and a profile alone are not enough
    expect(
      computePillars(
        ev({ reviews: 40, reviewWeight: 40, reviewWeightedRatings: 200, hasLocation: true }),
        NOW,
      ),
    ).toEqual(NULLS);
  });

  it('SCORE_MIN_BATCHES = 3: two approved batches are not enough, three are', () => {
    const m: MethodParams = { ...DEFAULT_METHOD, minApprovedBatches: 3 };
    const two = ev({ approvedBatches: 2, catalogSize: 2, currentPeptides: 2, newestTestedAt: daysAgo(1) });
    expect(computePillars(two, NOW, m)).toEqual(NULLS);
    expect(computePillars({ ...two, approvedBatches: 3 }, NOW, m).coa).toBe(100);
  });

  it('an unscored vendor gets a composite only when the operator overrides every pillar', () => {
    expect(effectiveScore(computePillars(NO_EVIDENCE, NOW), {})).toEqual({ pillars: null, score: null });
    expect(effectiveScore(computePillars(NO_EVIDENCE, NOW), { score: 90 })).toEqual({
      pillars: null,
      score: null,
    });
  });

  it('all batches stale and older than the purity window: coa 0 and purity 0, still scored', () => {
    // one batch 400 d old: not current, recency 0, outside the 365-day window
    const p = computePillars(
      ev({ catalogSize: 1, approvedBatches: 1, newestTestedAt: daysAgo(400), oldestTestedAt: daysAgo(400) }),
      NOW,
    );
    expect(p.coa).toBe(0);
    expect(p.purity).toBe(0);
    // no reviews: the prior
    expect(p.sentiment).toBe(63);
  });
});

/* The worked examples of docs/methodology.md, section "Worked examples". Evidence as the store sums it. */

/** Example A: "An established vendor". */
const EXAMPLE_A: VendorEvidenceSums = ev({
  // listed p1–p5, p7, p8; approved batches of p1–p6 → union of 8 peptides
  catalogSize: 8,
  // tested within 150 days: p1 (10 d), p4 (30 d), p2 (60 d), p5 (90 d)
  currentPeptides: 4,
  approvedBatches: 8,
  newestTestedAt: daysAgo(10),
  oldestTestedAt: daysAgo(500),
  // b1, b2, b3, b6, b8
  withSourceUrl: 5,
  // b1, b2, b3, b8
  withTrustedLab: 4,
  // in the window: trusted 99.5, 99.0, 98.5 and untrusted 97.0 × 4 (b8 is 500 d old, outside)
  ...window([99.5, true], [99, true], [98.5, true], [97, false], [97, false], [97, false], [97, false]),
  // 3 recent (5, 5, 4★), 2 of the last year (4, 2★), 4 older (3, 3, 2, 4★)
  reviews: 9,
  reviewWeight: 5,
  reviewWeightedRatings: 20,
  oldestReviewAt: daysAgo(876),
  hasLocation: true,
  hasDescription: true,
  hasWebsite: true,
  claimed: true,
  verifiedAt: daysAgo(730),
});

/** Example B: "A new vendor with one batch". */
const EXAMPLE_B: VendorEvidenceSums = ev({
  catalogSize: 3,
  currentPeptides: 1,
  approvedBatches: 1,
  newestTestedAt: daysAgo(45),
  oldestTestedAt: daysAgo(45),
  withSourceUrl: 1,
  withTrustedLab: 1,
  ...window([99.2, true]),
  hasLocation: true,
});

describe('determinism', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('the same evidence and time give the same pillars, without reading the clock', () => {
    const now = vi.spyOn(Date, 'now').mockImplementation(() => {
      throw new Error('the method must not read the clock');
    });
    const e = ev({ ...EXAMPLE_A });
    const first = computePillars(e, NOW);
    const second = computePillars(structuredClone(e), NOW);
    expect(second).toEqual(first);
    expect(computePillars(e, NOW)).toEqual(first);
    expect(now).not.toHaveBeenCalled();
    // the input is not modified
    expect(e).toEqual(ev({ ...EXAMPLE_A }));
  });
});

describe('Worked examples (docs/methodology.md)', () => {
  it('Example A: an established vendor → 70, silver', () => {
    expect(EXAMPLE_A.purityWeight).toBe(4); // 3 × 1 + 4 × 0.25
    expect(EXAMPLE_A.purityWeightedSum).toBe(394); // 297 + 0.25 × 388
    expect(EXAMPLE_A.purityWeightedSquares).toBe(38812.5); // 29403.5 + 0.25 × 4 × 9409
    const p = computePillars(EXAMPLE_A, NOW) as Pillars;
    expect(p).toEqual({
      // coverage 4/8 = 0.5; newest 10 d → recency 1; 100 × (0.35 + 0.3) = 65
      coa: 65,
      // mean 394/4 = 98.5 → level 85; variance 38812.5/4 − 98.5² = 9703.125 − 9702.25 = 0.875,
      // SD 0.935414 → penalty 9.354; 85 − 9.354 = 75.646 → 76
      purity: 76,
      // (17.5 + 20) / (5 + 5) = 3.75 → 68.75 → 69
      sentiment: 69,
      // URL 5/8 = 0.625, trusted 4/8 = 0.5, profile 4/4: 25 + 20 + 20 = 65
      transparency: 65,
      // since the review 876 d ago: 0.8 → 48; log10(18)/log10(101) = 0.626266 → 25.05; 73.05 → 73
      experience: 73,
    });
    // 19.5 + 19 + 10.35 + 9.75 + 10.95 = 69.55 → 70
    expect(compositeOf(p)).toBe(70);
    expect(tierOf(70)).toBe('silver');
  });

  it('Example A with fab-lab trusted: purity 68', () => {
    // seven batches of weight 1: mean 685/7 = 97.857 → level 78.571
    // Σp² = 29403.5 + 4 × 9409 = 67039.5; /7 = 9577.0714; − 97.857² (9576.0204) = 1.0510; SD 1.0252
    // 78.571 − 10.252 = 68.32 → 68
    const trusted = window(
      [99.5, true],
      [99, true],
      [98.5, true],
      [97, true],
      [97, true],
      [97, true],
      [97, true],
    );
    expect(purityPillar(ev(trusted))).toBe(68);
  });

  it('Example B: a new vendor with one batch → 61, bronze', () => {
    const p = computePillars(EXAMPLE_B, NOW) as Pillars;
    expect(p).toEqual({
      // coverage 1/3; 45 d → recency 1 − 15/120 = 0.875; 100 × (0.233333 + 0.2625) = 49.58 → 50
      coa: 50,
      // one batch at 99.2: level 92, SD 0
      purity: 92,
      // no reviews: the prior 3.5★ → 62.5 → 63
      sentiment: 63,
      // URL 1, trusted 1, profile 1/4: 40 + 40 + 5 = 85
      transparency: 85,
      // 45/1095 = 0.041096 → 2.466; log10(2)/log10(101) = 0.150190 → 6.008; 8.47 → 8
      experience: 8,
    });
    // 15 + 23 + 9.45 + 12.75 + 1.2 = 61.4 → 61
    expect(compositeOf(p)).toBe(61);
    expect(tierOf(61)).toBe('bronze');
  });

  it('Example B with SCORE_MIN_BATCHES = 2: unscored', () => {
    expect(computePillars(EXAMPLE_B, NOW, { ...DEFAULT_METHOD, minApprovedBatches: 2 })).toEqual(NULLS);
  });

  it('Example C: example B recomputed 200 days later with no new evidence → 48', () => {
    const later = NOW + 200 * DAY_MS;
    // the batch is now 245 d old: no longer current
    const p = computePillars({ ...EXAMPLE_B, currentPeptides: 0 }, later) as Pillars;
    expect(p).toEqual({
      // coverage 0, recency 0 (245 d ≥ 150)
      coa: 0,
      // 245 d is still inside the 365-day window
      purity: 92,
      sentiment: 63,
      transparency: 85,
      // 245/1095 = 0.223744 → 13.42; volume 6.008; 19.43 → 19
      experience: 19,
    });
    // 0 + 23 + 9.45 + 12.75 + 2.85 = 48.05 → 48
    expect(compositeOf(p)).toBe(48);
  });
});

describe('Worked examples (docs/methodology.md): composite and override examples', () => {
  const p = (coa: number, purity: number, sentiment: number, transparency: number, experience: number) => ({
    coa,
    purity,
    sentiment,
    transparency,
    experience,
  });

  it('ending exactly on .5: 89.5 → 90, platinum', () => {
    // 27 + 22 + 13.5 + 13.5 + 13.5 = 89.5 → 90
    expect(compositeOf(p(90, 88, 90, 90, 90))).toBe(90);
    expect(tierOf(90)).toBe('platinum');
  });

  it('a score override: 60 computed, 74 pinned, 60 again when cleared', () => {
    const computed = p(60, 56, 70, 50, 65);
    // 18 + 14 + 10.5 + 7.5 + 9.75 = 59.75 → 60
    expect(effectiveScore(computed, {})).toEqual({ pillars: computed, score: 60 });
    expect(effectiveScore(computed, { score: 74 })).toEqual({ pillars: computed, score: 74 });
    expect([tierOf(60), tierOf(74)]).toEqual(['bronze', 'silver']);
  });

  it('not scored: no approved batch, four pillar overrides and a score override', () => {
    const overrides = { coa: 90, purity: 90, sentiment: 90, transparency: 90, score: 99 };
    expect(effectiveScore(computePillars(NO_EVIDENCE, NOW), overrides)).toEqual({
      pillars: null,
      score: null,
    });
  });
});

/* Regressions: both were defects of the first draft of method v1, found by these tests. */
describe('regressions', () => {
  it('identical purities have no spread: three batches at 99.35 % score 94 like one does', () => {
    // mean 99.35, SD 0 → level 93.5 → 94. In floating point Σp²/W − mean² comes out as
    // 1.8e-12 instead of 0, its square root 1.35e-6, × 10 = 1.35e-5: more than the 1e-9
    // rounding epsilon, so 93.49998… rounds down to 93. SQLite's sum() gives the same sums.
    expect(purityPillar(ev(window([99.35, true], [99.35, true], [99.35, true])))).toBe(94);
  });

  it('BATCH_STALE_DAYS below coa.freshDays (30) must not give an old CoA full recency', () => {
    // staleAfterDays 20: "nothing from staleAfterDays on". The span 20 − 30 = −10 is negative, so
    // 1 − (age − 30)/−10 grows with age and clamps at 1: a 1000-day-old CoA scores recency 1.
    const m: MethodParams = { ...DEFAULT_METHOD, staleAfterDays: 20 };
    // coverage 0, recency should be 0 → 0 (the code gives 30)
    expect(coaPillar(ev({ catalogSize: 1, newestTestedAt: daysAgo(1000) }), NOW, m)).toBe(0);
  });
});

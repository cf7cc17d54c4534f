import { describe, expect, it } from 'vitest';
import { compositeOf, DEFAULT_WEIGHTS, effectiveScore, tierOf } from '../../../src/core/scoring/composite.ts';
import type { PartialPillars } from '../../../src/core/vendors/model.ts';
import { pillars } from '../../support/pillars.ts';

const NONE: PartialPillars = {
  coa: null,
  purity: null,
  sentiment: null,
  transparency: null,
  experience: null,
};

describe('compositeOf (weights 0.30 / 0.25 / 0.15 / 0.15 / 0.15)', () => {
  it('uses the documented weights, which sum to 1', () => {
    expect(DEFAULT_WEIGHTS).toEqual({
      coa: 0.3,
      purity: 0.25,
      sentiment: 0.15,
      transparency: 0.15,
      experience: 0.15,
    });
    expect(Object.values(DEFAULT_WEIGHTS).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
  });

  it.each([
    // 27 + 20 + 10.5 + 9 + 7.5 = 74
    [pillars(90, 80, 70, 60, 50), 74],
    // 30 + 25 + 15 + 15 + 15
    [pillars(100, 100, 100, 100, 100), 100],
    [pillars(0, 0, 0, 0, 0), 0],
    [pillars(77, 77, 77, 77, 77), 77],
    // 30 + 0 + 0 + 0 + 0
    [pillars(100, 0, 0, 0, 0), 30],
    // 0 + 25 + 0 + 0 + 0
    [pillars(0, 100, 0, 0, 0), 25],
    // 0 + 0 + 15 + 15 + 15
    [pillars(0, 0, 100, 100, 100), 45],
    // 28.5 + 21.25 + 12.3 + 13.2 + 10.5 = 85.75 → 86
    [pillars(95, 85, 82, 88, 70), 86],
    // 24.3 + 22.25 + 9.45 + 12.15 + 11.1 = 79.25 → 79
    [pillars(81, 89, 63, 81, 74), 79],
  ])('%o → %i', (p, expected) => {
    expect(compositeOf(p)).toBe(expected);
  });

  it('rounds exactly half up, even when floating point lands just below .5', () => {
    // 85·0.3 + 80·0.7 = 25.5 + 56 = 81.5 exactly → 82
    expect(compositeOf(pillars(85, 80, 80, 80, 80))).toBe(82);
    // 82·0.25 + 80·0.75 = 80.5 → 81
    expect(compositeOf(pillars(80, 82, 80, 80, 80))).toBe(81);
    // 21 + 17.5 + 10.95 + 10.5 + 10.5 = 70.45 → 70
    expect(compositeOf(pillars(70, 70, 73, 70, 70))).toBe(70);
    // 0.3 → 0; 1.5 → 2; 0.6 + 0.45 = 1.05 → 1
    expect(compositeOf(pillars(1, 0, 0, 0, 0))).toBe(0);
    expect(compositeOf(pillars(5, 0, 0, 0, 0))).toBe(2);
    expect(compositeOf(pillars(2, 0, 3, 0, 0))).toBe(1);
    // 0.25·2 = 0.5 → 1; 0.15·10 = 1.5 → 2
    expect(compositeOf(pillars(0, 2, 0, 0, 0))).toBe(1);
    expect(compositeOf(pillars(0, 0, 10, 0, 0))).toBe(2);
    // 25.5 + 22.75 + 9 + 10.5 + 12 = 79.75 → 80
    expect(compositeOf(pillars(85, 91, 60, 70, 80))).toBe(80);
  });

  it('rounds a sum that is only slightly below .5 down (the epsilon is not a second rounding)', () => {
    // 0.3·33 = 9.9 → 10; 0.15·3 = 0.45 → 0
    expect(compositeOf(pillars(33, 0, 0, 0, 0))).toBe(10);
    expect(compositeOf(pillars(0, 0, 3, 0, 0))).toBe(0);
  });

  it('normalises custom weights that do not sum to 1', () => {
    const w = { coa: 2, purity: 1, sentiment: 1, transparency: 0, experience: 0 };
    // (2·90 + 80 + 70) / 4 = 82.5 → 83
    expect(compositeOf(pillars(90, 80, 70, 0, 0), w)).toBe(83);
  });
});

describe('effectiveScore', () => {
  it('scores a vendor whose every pillar is computed', () => {
    expect(effectiveScore(pillars(90, 80, 70, 60, 50), {})).toEqual({
      pillars: pillars(90, 80, 70, 60, 50),
      score: 74,
    });
  });

  it('applies pillar overrides over computed values, including an override of 0', () => {
    expect(effectiveScore(pillars(90, 80, 70, 60, 50), { coa: 0, experience: 100 })).toEqual({
      pillars: pillars(0, 80, 70, 60, 100),
      // 0 + 20 + 10.5 + 9 + 15 = 54.5 → 55
      score: 55,
    });
  });

  it('fills a pillar with no evidence from its override', () => {
    expect(effectiveScore({ ...pillars(90, 80, 70, 60, 50), sentiment: null }, { sentiment: 70 })).toEqual({
      pillars: pillars(90, 80, 70, 60, 50),
      score: 74,
    });
  });

  it('pins the composite with a score override, keeping the pillars', () => {
    expect(effectiveScore(pillars(90, 80, 70, 60, 50), { score: 12 })).toEqual({
      pillars: pillars(90, 80, 70, 60, 50),
      score: 12,
    });
    expect(effectiveScore(pillars(90, 80, 70, 60, 50), { score: 0 })).toMatchObject({ score: 0 });
    expect(effectiveScore(pillars(90, 80, 70, 60, 50), { score: 100, coa: 10 })).toEqual({
      pillars: pillars(10, 80, 70, 60, 50),
      score: 100,
    });
  });

  it.each(['coa', 'purity', 'sentiment', 'transparency', 'experience'] as const)(
    'leaves a vendor unscored when %s has neither evidence nor override, even with a score override',
    (missing) => {
      const computed: PartialPillars = { ...pillars(90, 80, 70, 60, 50), [missing]: null };
      expect(effectiveScore(computed, {})).toEqual({ pillars: null, score: null });
      expect(effectiveScore(computed, { score: 88 })).toEqual({ pillars: null, score: null });
    },
  );

  it('scores a vendor with no evidence at all once every pillar is overridden', () => {
    expect(
      effectiveScore(NONE, { coa: 90, purity: 80, sentiment: 70, transparency: 60, experience: 50 }),
    ).toEqual({
      pillars: pillars(90, 80, 70, 60, 50),
      score: 74,
    });
    expect(effectiveScore(NONE, {})).toEqual({ pillars: null, score: null });
  });
});

describe('tierOf', () => {
  it.each([
    [0, 'bronze'],
    [69, 'bronze'],
    [70, 'silver'],
    [79, 'silver'],
    [80, 'gold'],
    [89, 'gold'],
    [90, 'platinum'],
    [100, 'platinum'],
  ] as const)('%i → %s', (score, tier) => {
    expect(tierOf(score)).toBe(tier);
  });
});

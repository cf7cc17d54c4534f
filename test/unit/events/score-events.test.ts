import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { EVENT_DATA } from '../../../src/core/events/model.ts';
import { scoreEvents } from '../../../src/core/events/score-events.ts';
import type { ScoreChange } from '../../../src/core/scoring/recompute-result.ts';
import { pillars } from '../../support/pillars.ts';

const change = (over: Partial<ScoreChange>): ScoreChange => ({
  slug: 'acme',
  previous: 70,
  next: 72,
  previousPillars: pillars(70, 70, 70, 70, 70),
  nextPillars: pillars(70, 70, 70, 70, 70),
  ...over,
});

describe('scoreEvents', () => {
  it('lists only the pillars that changed, with signed differences', () => {
    const events = scoreEvents([
      change({
        previous: 61,
        next: 48,
        // Example B → Example C of docs/methodology.md: coa 50 → 0, experience 8 → 19
        previousPillars: pillars(50, 92, 63, 85, 8),
        nextPillars: pillars(0, 92, 63, 85, 19),
      }),
    ]);
    expect(events).toEqual([
      {
        type: 'score.changed',
        data: {
          vendor_slug: 'acme',
          previous_score: 61,
          new_score: 48,
          // 48 − 61
          delta: -13,
          pillar_changes: { coa: -50, experience: 11 },
        },
      },
    ]);
  });

  it('a score override (docs/methodology.md): empty pillar_changes, tier upgrade; clearing it: no tier event', () => {
    const same = pillars(60, 56, 70, 50, 65);
    const set = scoreEvents([change({ previous: 60, next: 74, previousPillars: same, nextPillars: same })]);
    expect(set).toEqual([
      {
        type: 'score.changed',
        data: { vendor_slug: 'acme', previous_score: 60, new_score: 74, delta: 14, pillar_changes: {} },
      },
      {
        type: 'vendor.tier_upgraded',
        data: { vendor_slug: 'acme', previous_tier: 'bronze', new_tier: 'silver', score: 74 },
      },
    ]);
    const cleared = scoreEvents([
      change({ previous: 74, next: 60, previousPillars: same, nextPillars: same }),
    ]);
    expect(cleared).toEqual([
      {
        type: 'score.changed',
        data: { vendor_slug: 'acme', previous_score: 74, new_score: 60, delta: -14, pillar_changes: {} },
      },
    ]);
  });

  it('gives an empty pillar_changes when the previous pillars are unknown', () => {
    const [e] = scoreEvents([change({ previousPillars: null })]);
    expect(e?.data).toMatchObject({ pillar_changes: {} });
  });

  it('a first score (previous null) is no change: no event at all', () => {
    expect(scoreEvents([change({ previous: null, next: 95, previousPillars: null })])).toEqual([]);
  });

  it('an unchanged composite gives no event, even when pillars moved', () => {
    expect(
      scoreEvents([change({ previous: 72, next: 72, previousPillars: pillars(80, 70, 70, 70, 70) })]),
    ).toEqual([]);
  });

  it('moving up a tier band adds vendor.tier_upgraded after score.changed', () => {
    // 79 silver → 80 gold
    expect(scoreEvents([change({ previous: 79, next: 80 })])).toEqual([
      expect.objectContaining({ type: 'score.changed', data: expect.objectContaining({ delta: 1 }) }),
      {
        type: 'vendor.tier_upgraded',
        data: { vendor_slug: 'acme', previous_tier: 'silver', new_tier: 'gold', score: 80 },
      },
    ]);
  });

  it('skipping bands gives one upgrade event from the old tier to the new', () => {
    // 65 bronze → 92 platinum
    const events = scoreEvents([change({ previous: 65, next: 92 })]);
    expect(events.map((e) => e.type)).toEqual(['score.changed', 'vendor.tier_upgraded']);
    expect(events[1]?.data).toMatchObject({ previous_tier: 'bronze', new_tier: 'platinum', score: 92 });
  });

  it('moving down a band or within a band gives only score.changed', () => {
    // 80 gold → 79 silver: a downgrade
    expect(scoreEvents([change({ previous: 80, next: 79 })]).map((e) => e.type)).toEqual(['score.changed']);
    // 90 → 69: platinum → bronze
    expect(scoreEvents([change({ previous: 90, next: 69 })]).map((e) => e.type)).toEqual(['score.changed']);
    // 81 → 89: gold stays gold
    expect(scoreEvents([change({ previous: 81, next: 89 })]).map((e) => e.type)).toEqual(['score.changed']);
  });

  it('every event it builds validates against the schema of its kind (docs/events.md)', () => {
    const events = scoreEvents([
      change({ previous: 65, next: 92, nextPillars: pillars(100, 70, 70, 70, 90) }),
      change({ slug: 'b', previous: 90, next: 10 }),
    ]);
    expect(events).toHaveLength(3);
    for (const e of events) expect(Value.Errors(EVENT_DATA[e.type], e.data).First()).toBeUndefined();
  });

  it('keeps the order of the changes, each vendor’s events together', () => {
    const events = scoreEvents([
      change({ slug: 'a', previous: 69, next: 70 }),
      change({ slug: 'b', previous: null, next: 50 }),
      change({ slug: 'c', previous: 50, next: 40 }),
    ]);
    expect(events.map((e) => `${e.data.vendor_slug} ${e.type}`)).toEqual([
      'a score.changed',
      'a vendor.tier_upgraded',
      'c score.changed',
    ]);
  });
});

import { tierOf } from '../scoring/composite.ts';
import type { ScoreChange } from '../scoring/recompute-result.ts';
import { PILLARS, type Tier } from '../vendors/model.ts';
import type { EventData, EventOf } from './model.ts';

const TIER_RANK: Record<Tier, number> = { bronze: 0, silver: 1, gold: 2, platinum: 3 };

/**
 * `score.changed` for a composite that moved from one score to another (the spec's fields are
 * integers, so a vendor's first score is history, not a change), with `pillar_changes` listing
 * only the pillars that moved; `vendor.tier_upgraded` when it moved up a tier band.
 */
export function scoreEvents(
  changes: readonly ScoreChange[],
): (EventOf<'score.changed'> | EventOf<'vendor.tier_upgraded'>)[] {
  const out: (EventOf<'score.changed'> | EventOf<'vendor.tier_upgraded'>)[] = [];
  for (const c of changes) {
    if (c.previous === null || c.previous === c.next) continue;
    const pillarChanges: EventData<'score.changed'>['pillar_changes'] = {};
    if (c.previousPillars && c.nextPillars) {
      for (const p of PILLARS) {
        const d = c.nextPillars[p] - c.previousPillars[p];
        if (d !== 0) pillarChanges[p] = d;
      }
    }
    out.push({
      type: 'score.changed',
      data: {
        vendor_slug: c.slug,
        previous_score: c.previous,
        new_score: c.next,
        delta: c.next - c.previous,
        pillar_changes: pillarChanges,
      },
    });
    const from = tierOf(c.previous);
    const to = tierOf(c.next);
    if (TIER_RANK[to] > TIER_RANK[from]) {
      out.push({
        type: 'vendor.tier_upgraded',
        data: { vendor_slug: c.slug, previous_tier: from, new_tier: to, score: c.next },
      });
    }
  }
  return out;
}

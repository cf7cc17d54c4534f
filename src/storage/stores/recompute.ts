import type { Transaction } from 'kysely';
import { scoreEvents } from '../../core/events/score-events.ts';
import { type EffectiveScore, effectiveScore, type OverrideMap } from '../../core/scoring/composite.ts';
import { NO_EVIDENCE, type VendorEvidenceSums } from '../../core/scoring/evidence.ts';
import { cutoffsOf, type MethodParams } from '../../core/scoring/method.ts';
import { computePillars } from '../../core/scoring/pillars.ts';
import type { RecomputeResult } from '../../core/scoring/recompute-result.ts';
import { PILLARS, type Pillar, type Pillars } from '../../core/vendors/model.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database } from '../schema.ts';
import { loadEvidence } from './evidence-query.ts';
import { appendEvents } from './outbox-store.ts';
import { chunked } from './upsert.ts';

export interface RecomputeOptions {
  nowIso: string;
  /** Why: stored with each score-history entry (e.g. `import`, `batch approved`). */
  reason: string;
  method: MethodParams;
  /** Stamped on every vendor row this recompute writes (the data version the write commits). */
  rowVersion: number;
}

export type { RecomputeResult };

const SLICE = 5000;

/**
 * Recomputes the given vendors (by slug, or all of them) from the evidence in the store, inside
 * the caller's transaction: computed pillars, overrides applied, composite, mean purity. Writes
 * only rows whose values changed, appends a history entry for each composite change, and writes
 * `score.changed` / `vendor.tier_upgraded` events to the outbox: all of it commits or rolls back
 * with the change that caused it.
 */
export async function recomputeVendors(
  trx: Transaction<Database>,
  caps: DialectCapabilities,
  target: readonly string[] | 'all',
  opts: RecomputeOptions,
): Promise<RecomputeResult> {
  const result: RecomputeResult = { vendors: 0, updated: 0, changes: [] };
  const nowMs = Date.parse(opts.nowIso);
  const cut = cutoffsOf(nowMs, opts.method);
  const slices: (readonly string[] | 'all')[] =
    target === 'all' ? ['all'] : [...chunked([...new Set(target)], Math.min(SLICE, caps.maxParameters / 4))];
  for (const slice of slices) {
    if (slice !== 'all' && slice.length === 0) continue;
    const vendors = await trx
      .selectFrom('vendors')
      .select([
        'id',
        'slug',
        'coa',
        'purity',
        'sentiment',
        'transparency',
        'experience',
        'eff_coa',
        'eff_purity',
        'eff_sentiment',
        'eff_transparency',
        'eff_experience',
        'score',
        'avg_purity',
      ])
      .$if(slice !== 'all', (q) => q.where('slug', 'in', slice as string[]))
      .orderBy('id')
      .execute();
    if (vendors.length === 0) continue;
    const ids = slice === 'all' ? 'all' : vendors.map((v) => v.id);
    const overrides = new Map<number, OverrideMap>();
    for (const o of await trx
      .selectFrom('overrides')
      .select(['vendor_id', 'field', 'value'])
      .$if(ids !== 'all', (q) => q.where('vendor_id', 'in', ids as number[]))
      .execute()) {
      const m = overrides.get(o.vendor_id) ?? {};
      m[o.field as Pillar | 'score'] = o.value;
      overrides.set(o.vendor_id, m);
    }
    const evidence = await loadEvidence(trx, ids, cut, opts.method);

    const history: { vendor_id: number; score: number; reason: string; recorded_at: string }[] = [];
    for (const v of vendors) {
      result.vendors++;
      const e = evidence.get(v.id) ?? NO_EVIDENCE;
      const computed = computePillars(e, nowMs, opts.method);
      const eff: EffectiveScore = effectiveScore(computed, overrides.get(v.id) ?? {}, opts.method.weights);
      const next = {
        ...computed,
        score: eff.score,
        eff_coa: eff.pillars?.coa ?? null,
        eff_purity: eff.pillars?.purity ?? null,
        eff_sentiment: eff.pillars?.sentiment ?? null,
        eff_transparency: eff.pillars?.transparency ?? null,
        eff_experience: eff.pillars?.experience ?? null,
        avg_purity: meanPurity(e),
      };
      const same = (Object.keys(next) as (keyof typeof next)[]).every(
        (k) => (v[k] === null ? null : Number(v[k])) === next[k],
      );
      if (same) continue;
      result.updated++;
      await trx
        .updateTable('vendors')
        .set({ ...next, row_version: opts.rowVersion })
        .where('id', '=', v.id)
        .execute();
      if (eff.score !== null && eff.score !== v.score) {
        history.push({ vendor_id: v.id, score: eff.score, reason: opts.reason, recorded_at: opts.nowIso });
        result.changes.push({
          slug: v.slug,
          previous: v.score,
          next: eff.score,
          previousPillars: pillarsOf(v),
          nextPillars: eff.pillars,
        });
      }
    }
    for (const part of chunked(history, 1000)) await trx.insertInto('score_history').values(part).execute();
  }
  await appendEvents(trx, scoreEvents(result.changes), opts.nowIso);
  return result;
}

function pillarsOf(v: Record<`eff_${Pillar}`, number | null>): Pillars | null {
  const out = {} as Pillars;
  for (const p of PILLARS) {
    const x = v[`eff_${p}`];
    if (x === null) return null;
    out[p] = Number(x);
  }
  return out;
}

/** Mean tested purity of approved batches, one decimal (Variant A's `purity` text); null without any. */
function meanPurity(e: VendorEvidenceSums): number | null {
  if (e.approvedPurityCount === 0) return null;
  // Sums arrive in no fixed order on PostgreSQL, so the mean can differ in its last bits between
  // runs; the epsilon (far above that noise, far below a real difference) keeps a .x5 stable.
  return Math.floor((e.approvedPuritySum / e.approvedPurityCount) * 10 + 0.5 + 1e-9) / 10;
}

import type { Transaction } from 'kysely';
import { effectiveScore, type OverrideMap } from '../../core/scoring/composite.ts';
import type { Pillar } from '../../core/vendors/model.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database } from '../schema.ts';
import { chunked } from './upsert.ts';

/**
 * Re-derives the effective pillars, composite and mean purity of the given vendors inside the
 * caller's transaction, and appends to the score history when the composite changes. Until the
 * evidence engine lands (issue [3]) computed pillars stay null, so overrides supply them.
 */
export async function recomputeVendors(
  trx: Transaction<Database>,
  caps: DialectCapabilities,
  slugs: string[],
  nowIso: string,
  reason: string,
): Promise<number> {
  if (slugs.length === 0) return 0;
  const size = Math.min(5000, caps.maxParameters - 10);
  let changed = 0;
  for (const part of chunked([...new Set(slugs)], size)) {
    const vendors = await trx
      .selectFrom('vendors')
      .select(['id', 'coa', 'purity', 'sentiment', 'transparency', 'experience', 'score', 'avg_purity'])
      .where('slug', 'in', part)
      .execute();
    const ids = vendors.map((v) => v.id);
    const overrides = new Map<number, OverrideMap>();
    for (const o of await trx
      .selectFrom('overrides')
      .select(['vendor_id', 'field', 'value'])
      .where('vendor_id', 'in', ids)
      .execute()) {
      const m = overrides.get(o.vendor_id) ?? {};
      m[o.field as Pillar | 'score'] = o.value;
      overrides.set(o.vendor_id, m);
    }
    const purity = new Map<number, number>();
    const rows = await trx
      .selectFrom('batches')
      .select((eb) => ['vendor_id', eb.fn.avg<number>('purity').as('avg')])
      .where('vendor_id', 'in', ids)
      .where('status', '=', 'approved')
      .where('purity', 'is not', null)
      .groupBy('vendor_id')
      .execute();
    for (const r of rows) purity.set(r.vendor_id, Math.round(Number(r.avg) * 10) / 10);

    const history: { vendor_id: number; score: number; reason: string; recorded_at: string }[] = [];
    for (const v of vendors) {
      const eff = effectiveScore(
        {
          coa: v.coa,
          purity: v.purity,
          sentiment: v.sentiment,
          transparency: v.transparency,
          experience: v.experience,
        },
        overrides.get(v.id) ?? {},
      );
      const avg = purity.get(v.id) ?? null;
      await trx
        .updateTable('vendors')
        .set({
          score: eff.score,
          eff_coa: eff.pillars?.coa ?? null,
          eff_purity: eff.pillars?.purity ?? null,
          eff_sentiment: eff.pillars?.sentiment ?? null,
          eff_transparency: eff.pillars?.transparency ?? null,
          eff_experience: eff.pillars?.experience ?? null,
          avg_purity: avg,
        })
        .where('id', '=', v.id)
        .execute();
      if (eff.score !== null && eff.score !== v.score) {
        history.push({ vendor_id: v.id, score: eff.score, reason, recorded_at: nowIso });
        changed++;
      }
    }
    for (const part2 of chunked(history, 1000)) await trx.insertInto('score_history').values(part2).execute();
  }
  return changed;
}

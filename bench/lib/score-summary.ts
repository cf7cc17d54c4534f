import type { Kysely } from 'kysely';
import { tierOf } from '../../src/core/scoring/composite.ts';
import type { Tier } from '../../src/core/vendors/model.ts';
import type { Database } from '../../src/storage/schema.ts';
import { tableCount } from './table-count.ts';

/** How the stored composite scores of a dataset are spread: a sanity check of the scale seed. */
export interface ScoreSummary {
  vendors: number;
  scored: number;
  min: number;
  p10: number;
  median: number;
  p90: number;
  max: number;
  tiers: Record<Tier, number>;
  overrides: number;
  reviews: number;
}

const at = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function scoreSummary(db: Kysely<Database>): Promise<ScoreSummary> {
  const rows = await db.selectFrom('vendors').select(['score', 'eff_coa']).execute();
  // Scored exactly as the read model says: a composite and every effective pillar.
  const scores = rows
    .filter((r) => r.score !== null && r.eff_coa !== null)
    .map((r) => Number(r.score))
    .sort((a, b) => a - b);
  const tiers: Record<Tier, number> = { platinum: 0, gold: 0, silver: 0, bronze: 0 };
  for (const s of scores) tiers[tierOf(s)]++;
  const count = (table: 'overrides' | 'reviews') => tableCount(db, table);
  return {
    vendors: rows.length,
    scored: scores.length,
    min: scores[0] ?? Number.NaN,
    p10: at(scores, 0.1),
    median: at(scores, 0.5),
    p90: at(scores, 0.9),
    max: scores.at(-1) ?? Number.NaN,
    tiers,
    overrides: await count('overrides'),
    reviews: await count('reviews'),
  };
}

export const summaryText = (s: ScoreSummary): string =>
  `${s.scored.toLocaleString('en-US')} of ${s.vendors.toLocaleString('en-US')} vendors scored; score min ${s.min}, ` +
  `p10 ${s.p10}, median ${s.median}, p90 ${s.p90}, max ${s.max}; tiers platinum ${s.tiers.platinum}, ` +
  `gold ${s.tiers.gold}, silver ${s.tiers.silver}, bronze ${s.tiers.bronze}; ${s.overrides} overrides, ` +
  `${s.reviews.toLocaleString('en-US')} reviews`;

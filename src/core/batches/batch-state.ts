import { DAY_MS } from '../clock.ts';
import type { BatchRecord, BatchVerification } from './model.ts';

/** A batch tested more than this many whole days ago is `stale` (spec: more than 150 days). */
export const DEFAULT_STALE_AFTER_DAYS = 150;

/** Whole days elapsed since testing, never negative. 150 days and 23 hours is 150. */
export const ageInDays = (testedAt: string, nowMs: number): number =>
  Math.max(0, Math.floor((nowMs - Date.parse(testedAt)) / DAY_MS));

/**
 * Turns the records stored for one batch number into the lookup answer. Rejected submissions
 * count as no record. When several vendors share the number (and the caller did not narrow with
 * ?vendor=), the strongest evidence wins: current approved, then stale approved (each newest
 * test first), then pending (newest submission first); ties go to the vendor slug.
 */
export function resolveBatch(
  requestedId: string,
  records: readonly BatchRecord[],
  nowMs: number,
  staleAfterDays = DEFAULT_STALE_AFTER_DAYS,
): BatchVerification {
  let best: { rank: number; at: number; rec: BatchRecord; age: number } | null = null;
  for (const rec of records) {
    let rank: number;
    let at: number;
    let age = 0;
    if (rec.status === 'approved' && rec.testedAt) {
      age = ageInDays(rec.testedAt, nowMs);
      rank = age > staleAfterDays ? 1 : 0;
      at = Date.parse(rec.testedAt);
    } else if (rec.status === 'pending') {
      rank = 2;
      at = rec.submittedAt ? Date.parse(rec.submittedAt) : 0;
    } else continue;
    if (
      !best ||
      rank < best.rank ||
      (rank === best.rank && (at > best.at || (at === best.at && rec.vendorSlug < best.rec.vendorSlug)))
    ) {
      best = { rank, at, rec, age };
    }
  }
  if (!best) return { state: 'missing', batchId: requestedId };
  const r = best.rec;
  const common = {
    batchId: r.batchId,
    peptideName: r.peptideName,
    vendorSlug: r.vendorSlug,
    vendorName: r.vendorName,
    vendorVerified: r.vendorVerified,
  };
  if (best.rank === 2) return { state: 'pending', ...common, submittedAt: r.submittedAt ?? '' };
  return {
    state: best.rank === 0 ? 'verified' : 'stale',
    ...common,
    purity: r.purity ?? 0,
    lab: r.labName ?? '',
    testMethod: r.testMethod ?? '',
    testedAt: r.testedAt!,
    ageDays: best.age,
    source: r.source ?? '',
    sourceUrl: r.sourceUrl ?? '',
  };
}

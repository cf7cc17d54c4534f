import { DAY_MS } from '../clock.ts';
import type { BatchLookup, BatchRecord, BatchVerification } from './model.ts';

/** A batch tested more than this many whole days ago is `stale` (spec: more than 150 days). */
export const DEFAULT_STALE_AFTER_DAYS = 150;

/** Whole days elapsed since testing, never negative. 150 days and 23 hours is 150. */
export const ageInDays = (testedAt: string, nowMs: number): number =>
  Math.max(0, Math.floor((nowMs - Date.parse(testedAt)) / DAY_MS));

/** The state of a tested batch at `nowMs`, and when that answer next changes. */
export interface TestedState {
  state: 'verified' | 'stale';
  ageDays: number;
  /** Epoch ms at which `ageDays` next moves (a whole number of days after testing). */
  ageValidUntil: number;
  /** Epoch ms at which a `verified` batch turns `stale`; Infinity once stale. */
  stateValidUntil: number;
}

/**
 * The one staleness rule (stale = tested more than `staleAfterDays` whole days ago) and the
 * moments it flips, so no caller re-derives either. Every answer is a pure function of the time,
 * and these are the instants at which it changes.
 */
export function testedState(
  testedAt: string,
  nowMs: number,
  staleAfterDays = DEFAULT_STALE_AFTER_DAYS,
): TestedState {
  const ageDays = ageInDays(testedAt, nowMs);
  const tested = Date.parse(testedAt);
  const stale = ageDays > staleAfterDays;
  return {
    state: stale ? 'stale' : 'verified',
    ageDays,
    ageValidUntil: tested + (ageDays + 1) * DAY_MS,
    stateValidUntil: stale ? Number.POSITIVE_INFINITY : tested + (staleAfterDays + 1) * DAY_MS,
  };
}

/** An approved record that carries every test fact the answer shows (the import requires them). */
type TestedRecord = BatchRecord & { purity: number; labName: string; testMethod: string; testedAt: string };
const isTested = (r: BatchRecord): r is TestedRecord =>
  r.status === 'approved' &&
  r.purity !== null &&
  r.labName !== null &&
  r.testMethod !== null &&
  r.testedAt !== null;

/**
 * Turns the records stored for one batch number into the lookup answer. Rejected submissions
 * count as no record, and so does a record that lacks what its state must show (an approved one
 * without its test facts, a pending one without its submission time: the import refuses both, so
 * only a hand-edited database holds them). When several vendors share the number (and the caller
 * did not narrow with ?vendor=), the strongest evidence wins: current approved, then stale
 * approved (each newest test first), then pending (newest submission first); ties go to the
 * vendor slug.
 */
export function resolveBatch(
  requestedId: string,
  records: readonly BatchRecord[],
  nowMs: number,
  staleAfterDays = DEFAULT_STALE_AFTER_DAYS,
): BatchVerification {
  return resolveBatchLookup(requestedId, records, nowMs, staleAfterDays).answer;
}

/** resolveBatch, and until when its answer holds (see BatchLookup). */
export function resolveBatchLookup(
  requestedId: string,
  records: readonly BatchRecord[],
  nowMs: number,
  staleAfterDays = DEFAULT_STALE_AFTER_DAYS,
): BatchLookup {
  type Best =
    | { rank: 0 | 1; at: number; rec: TestedRecord; tested: TestedState }
    | { rank: 2; at: number; rec: BatchRecord & { submittedAt: string } };
  let best: Best | null = null;
  for (const rec of records) {
    let candidate: Best;
    if (isTested(rec)) {
      const tested = testedState(rec.testedAt, nowMs, staleAfterDays);
      candidate = { rank: tested.state === 'stale' ? 1 : 0, at: Date.parse(rec.testedAt), rec, tested };
    } else if (rec.status === 'pending' && rec.submittedAt !== null) {
      candidate = { rank: 2, at: Date.parse(rec.submittedAt), rec: { ...rec, submittedAt: rec.submittedAt } };
    } else continue;
    if (
      !best ||
      candidate.rank < best.rank ||
      (candidate.rank === best.rank &&
        (candidate.at > best.at || (candidate.at === best.at && rec.vendorSlug < best.rec.vendorSlug)))
    ) {
      best = candidate;
    }
  }
  // Only the winner's own clock can change the answer: every other record already ranks below it
  // and time only ever demotes a record (verified → stale), never promotes one.
  if (!best)
    return { answer: { state: 'missing', batchId: requestedId }, validUntil: Number.POSITIVE_INFINITY };
  const r = best.rec;
  const common = {
    batchId: r.batchId,
    peptideName: r.peptideName,
    vendorSlug: r.vendorSlug,
    vendorName: r.vendorName,
    vendorVerified: r.vendorVerified,
  };
  if (best.rank === 2) {
    return {
      answer: { state: 'pending', ...common, submittedAt: best.rec.submittedAt },
      validUntil: Number.POSITIVE_INFINITY,
    };
  }
  const t = best.rec;
  return {
    answer: {
      state: best.tested.state,
      ...common,
      purity: t.purity,
      lab: t.labName,
      testMethod: t.testMethod,
      testedAt: t.testedAt,
      ageDays: best.tested.ageDays,
      // Optional facts: the documented empty text when not recorded (decision 0007).
      source: t.source ?? '',
      sourceUrl: t.sourceUrl ?? '',
    },
    validUntil: best.tested.ageValidUntil,
  };
}

import { DEFAULT_STALE_AFTER_DAYS, testedState } from '../batches/batch-state.ts';
import type { BatchRecord } from '../batches/model.ts';
import type { CatalogStore } from '../ports.ts';
import { getVendor } from './get-vendor.ts';
import type { VendorDetail } from './model.ts';

/** Entries of a report's recent CoAs (Variant A's `recent_coas`). */
export const DEFAULT_RECENT_COAS = 10;

interface CoaCommon {
  batchId: string;
  peptideName: string;
  /** When the vendor submitted it; not every approved record carries one. */
  submittedAt: string | null;
}

/** One of the newest approved or pending batches of a vendor, with its state already decided. */
export type RecentCoa =
  | (CoaCommon & {
      state: 'verified' | 'stale';
      purity: number;
      lab: string;
      testedAt: string;
    })
  | (CoaCommon & { state: 'pending'; submittedAt: string });

/** Everything a vendor report shows, and until when it holds without a data change. */
export interface VendorReport {
  vendor: VendorDetail;
  /** Approved CoAs on record. */
  coaCount: number;
  /** Names of the peptides the vendor lists, by name. */
  peptideNames: string[];
  /** Newest first. */
  recent: RecentCoa[];
  /** Epoch ms at which the first recent CoA turns stale; Infinity when none will. */
  validUntil: number;
}

/**
 * A vendor's report: detail, evidence and the state of its recent CoAs at `nowMs`, decided by the
 * one staleness rule (core/batches/batch-state.ts). Unknown vendor → not_found.
 */
export async function getVendorReport(
  store: CatalogStore,
  slug: string,
  opts: { historyLength: number; nowMs: number; recentCoas?: number; staleAfterDays?: number },
): Promise<VendorReport> {
  const vendor = await getVendor(store, slug, opts.historyLength);
  const evidence = await store.vendorEvidence(vendor.id, opts.recentCoas ?? DEFAULT_RECENT_COAS);
  const recent: RecentCoa[] = [];
  let validUntil = Number.POSITIVE_INFINITY;
  for (const b of evidence.recent) {
    const coa = recentCoa(b, opts.nowMs, opts.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS);
    if (!coa) continue;
    recent.push(coa.coa);
    validUntil = Math.min(validUntil, coa.validUntil);
  }
  return { vendor, coaCount: evidence.coaCount, peptideNames: evidence.peptideNames, recent, validUntil };
}

/**
 * A stored record as a recent CoA, or null when it lacks what its state shows (the import refuses
 * such records: an approved batch needs purity, lab, method and test date; a pending one its
 * submission time).
 */
function recentCoa(
  b: BatchRecord,
  nowMs: number,
  staleAfterDays: number,
): { coa: RecentCoa; validUntil: number } | null {
  const common = { batchId: b.batchId, peptideName: b.peptideName };
  if (b.status === 'pending') {
    if (b.submittedAt === null) return null;
    return {
      coa: { ...common, state: 'pending', submittedAt: b.submittedAt },
      validUntil: Number.POSITIVE_INFINITY,
    };
  }
  if (b.status !== 'approved' || b.testedAt === null || b.purity === null || b.labName === null) return null;
  const t = testedState(b.testedAt, nowMs, staleAfterDays);
  return {
    // The report shows the state, not the age: only the verified → stale flip changes it.
    coa: {
      ...common,
      submittedAt: b.submittedAt,
      state: t.state,
      purity: b.purity,
      lab: b.labName,
      testedAt: b.testedAt,
    },
    validUntil: t.stateValidUntil,
  };
}

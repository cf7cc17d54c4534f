import { DomainError, notFound } from '../errors.ts';
import type { WriteExpectations } from '../ports.ts';
import type { ImportBatch } from './records.ts';
import { batchFactKey, type WriteFacts } from './write-facts.ts';

/**
 * The rules a write must satisfy that depend on what the database holds. They are checked once,
 * here, inside the write transaction under its lock (the store reads the facts, then calls these),
 * so two concurrent writes cannot both pass them and no adapter re-implements them. Breaking one
 * throws a DomainError and nothing of the write stays.
 */

/** An operator's preconditions (WriteExpectations), against the facts read at the start of the write. */
export function checkExpectations(e: WriteExpectations, facts: WriteFacts): void {
  for (const id of e.newReviews ?? []) {
    if (facts.reviews.has(id)) throw new DomainError('conflict', `Review '${id}' already exists.`);
  }
  for (const id of e.unrepliedReviews ?? []) {
    if (facts.replied.has(id)) throw new DomainError('conflict', `Review '${id}' already has a reply.`);
  }
  for (const b of e.pendingBatches ?? []) {
    const status = facts.batches.get(batchFactKey(b.vendorSlug, b.batchId))?.status ?? 'missing';
    if (status !== 'pending') {
      throw new DomainError(
        'conflict',
        `Batch '${b.batchId}' of '${b.vendorSlug}' is ${status}, not pending.`,
      );
    }
  }
  for (const b of e.newBatches ?? []) {
    const stored = facts.batches.get(batchFactKey(b.vendorSlug, b.batchId));
    if (stored) {
      throw new DomainError(
        'conflict',
        `Batch '${b.batchId}' of '${b.vendorSlug}' is already ${stored.status}.`,
      );
    }
  }
  for (const a of e.accounts ?? []) {
    const plan = facts.accounts.get(a.name);
    // The import path upserts accounts: without this an unknown name would be created.
    if (plan === undefined) throw notFound('Account', a.name);
    if (a.plan !== undefined && plan !== a.plan) {
      throw new DomainError(
        'conflict',
        `Account '${a.name}' changed plan (now ${plan}) while this change was made; try again.`,
      );
    }
  }
}

/**
 * Rules of one chunk of records, whatever path wrote it (import, operator API, CLI):
 * a reply that names its author must come from the account that owns the reviewed vendor, as this
 * write leaves it (a review or claim in the same write counts). A reply without an author (an
 * imported history) is not checked.
 */
export function checkChunk(b: ImportBatch, facts: WriteFacts): void {
  if (b.reply.length === 0) return;
  const written = new Map(b.review.map((r) => [r.id, r.vendorSlug]));
  for (const r of b.reply) {
    if (r.account === undefined) continue;
    const { vendorSlug, owner } = replyTarget(r.reviewId, written, facts);
    if (owner === null) {
      throw new DomainError(
        'conflict',
        `Vendor '${vendorSlug}' is not claimed by an account, so nobody can reply to review '${r.reviewId}'.`,
      );
    }
    if (owner !== r.account) {
      throw new DomainError(
        'invalid_parameter',
        `Account '${r.account}' cannot reply to review '${r.reviewId}': a reply's account must be the account that owns vendor '${vendorSlug}'.`,
        { parameter: 'account' },
      );
    }
  }
}

/**
 * A decision is never undone by a file. A batch line with `status: pending` for a batch stored as
 * approved or rejected (an operator's decision, or an earlier file's) leaves the batch as decided:
 * its status and the test facts the decision rests on (purity, lab, testMethod, testedAt) are kept,
 * and the line's other fields (peptide, source, sourceUrl, submittedAt) still apply. So
 * re-importing the file a pending submission came from, after it was approved, changes nothing,
 * and importing it twice leaves the data as the first time (docs/import-format.md, decision 0008).
 * An explicit `approved` or `rejected` in a file is a decision and does apply (with its event:
 * events/evidence-events.ts). Returns the chunk to write; lines that need no change are kept as is.
 */
export function keepDecisions(b: ImportBatch, facts: WriteFacts): ImportBatch {
  let changed = false;
  const batch = b.batch.map((r) => {
    if (r.status !== 'pending') return r;
    const stored = facts.batches.get(batchFactKey(r.vendorSlug, r.batchId));
    if (stored === undefined || stored.status === 'pending') return r;
    changed = true;
    const { purity: _p, lab: _l, testMethod: _m, testedAt: _t, ...submission } = r;
    return { ...submission, status: stored.status };
  });
  return changed ? { ...b, batch } : b;
}

/** The vendor a reply is for, and its owner, as this write leaves them. */
export function replyTarget(
  reviewId: string,
  writtenReviews: ReadonlyMap<string, string>,
  facts: WriteFacts,
): { vendorSlug: string; owner: string | null } {
  const movedTo = writtenReviews.get(reviewId);
  if (movedTo !== undefined) {
    const owner = facts.vendorOwners.get(movedTo);
    if (owner === undefined) throw new Error(`write facts lack the owner of vendor '${movedTo}'`);
    return { vendorSlug: movedTo, owner };
  }
  const stored = facts.reviews.get(reviewId);
  // The import parser refuses a reply to a review that is neither in the write nor stored.
  if (!stored) throw new Error(`write facts lack review '${reviewId}'`);
  return stored;
}

/**
 * The vendors a chunk's batch lines (as written: keepDecisions) can move the scores of. Scoring
 * reads approved batches only, so a line changes its vendor's evidence only when the batch is
 * approved before or after the write. A pending submission (a CoA upload queues one) or a decided
 * batch's submission fields leave every score as it is: their vendor is not recomputed (it would
 * redo the same figures, or move them by the clock alone, which only a recompute should) nor
 * reloaded by readers (nothing they hold changed).
 */
export function scoredBatchVendors(written: ImportBatch['batch'], facts: WriteFacts): Set<string> {
  const out = new Set<string>();
  for (const r of written) {
    if (
      r.status === 'approved' ||
      facts.batches.get(batchFactKey(r.vendorSlug, r.batchId))?.status === 'approved'
    )
      out.add(r.vendorSlug);
  }
  return out;
}

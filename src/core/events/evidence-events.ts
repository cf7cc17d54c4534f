import type { ImportBatch } from '../import/records.ts';
import { batchFactKey, type WriteFacts } from '../import/write-facts.ts';
import { replyTarget } from '../import/write-rules.ts';
import type { EventOf } from './model.ts';

export type EvidenceEvent =
  | EventOf<'coa.approved'>
  | EventOf<'coa.rejected'>
  | EventOf<'review.new'>
  | EventOf<'review.reply'>;

/**
 * The events of one chunk of evidence, whatever path wrote it (import, operator API, CLI), from
 * the records and the facts read before they were written:
 * - `coa.approved` / `coa.rejected` for a stored batch whose status this write decides: one that
 *   leaves `pending`, or an explicit reversal (approved → rejected, rejected → approved). A batch
 *   imported already decided is history, not a decision, and a `pending` line never moves a
 *   decided batch (import/write-rules.ts keepDecisions). Its facts are the batch as this write
 *   leaves it: a field the record omits keeps its stored value (the import format's rule), and an
 *   approved batch has all its test facts;
 * - `review.new` for a review id not stored before;
 * - `review.reply` for a review's first reply (a later reply replaces its text: no event).
 * A re-import that changes nothing writes none.
 */
export function evidenceEvents(b: ImportBatch, facts: WriteFacts): EvidenceEvent[] {
  const out: EvidenceEvent[] = [];
  const decided = new Set<string>();
  for (const r of b.batch) {
    if (r.status === 'pending') continue;
    const key = batchFactKey(r.vendorSlug, r.batchId);
    const before = facts.batches.get(key);
    if (before === undefined || before.status === r.status || decided.has(key)) continue;
    decided.add(key);
    const common = {
      vendor_slug: r.vendorSlug,
      batch_id: r.batchId.trim(),
      peptide_slug: r.peptideSlug,
      peptide_name: known(facts.peptideNames, r.peptideSlug, 'peptide'),
    };
    if (r.status === 'rejected') {
      out.push({ type: 'coa.rejected', data: common });
      continue;
    }
    const lab = fact(r.lab, before.lab, 'lab', key);
    out.push({
      type: 'coa.approved',
      data: {
        ...common,
        purity: fact(r.purity, before.purity, 'purity', key),
        lab,
        lab_name: known(facts.labNames, lab, 'lab'),
        test_method: fact(r.testMethod, before.testMethod, 'testMethod', key),
        tested_at: fact(r.testedAt, before.testedAt, 'testedAt', key),
      },
    });
  }

  const seenReviews = new Set<string>();
  for (const r of b.review) {
    if (facts.reviews.has(r.id) || seenReviews.has(r.id)) continue;
    seenReviews.add(r.id);
    out.push({
      type: 'review.new',
      data: {
        vendor_slug: r.vendorSlug,
        review_id: r.id,
        rating: r.rating,
        title: r.title,
        body: r.body,
        author: r.author,
        created_at: r.createdAt,
      },
    });
  }

  const written = new Map(b.review.map((r) => [r.id, r.vendorSlug]));
  const seenReplies = new Set<string>();
  for (const r of b.reply) {
    if (facts.replied.has(r.reviewId) || seenReplies.has(r.reviewId)) continue;
    seenReplies.add(r.reviewId);
    out.push({
      type: 'review.reply',
      data: {
        vendor_slug: replyTarget(r.reviewId, written, facts).vendorSlug,
        review_id: r.reviewId,
        body: r.body,
        created_at: r.createdAt,
      },
    });
  }
  return out;
}

/**
 * A test fact of an approved batch: the record's value, or the stored one when the record omits
 * it (the import format's rule). The import rules refuse an approval without all four facts, so a
 * missing one is a bug, not a null to send.
 */
function fact<V>(given: V | null | undefined, stored: V | null, field: string, batch: string): V {
  const v = given !== undefined ? given : stored;
  if (v === null || v === undefined)
    throw new Error(`approved batch ${JSON.stringify(batch)} has no ${field}`);
  return v;
}

function known(names: ReadonlyMap<string, string>, slug: string, what: string): string {
  const name = names.get(slug);
  // The import parser refuses a batch naming an unknown peptide or lab; facts hold every one named.
  if (name === undefined) throw new Error(`write facts lack the name of ${what} '${slug}'`);
  return name;
}

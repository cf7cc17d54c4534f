import type { Plan } from '../accounts/model.ts';
import type { WriteExpectations } from '../ports.ts';
import { batchKey, type ImportBatch } from './records.ts';

/**
 * What a write's rules and events need to know about the database: read by the store inside the
 * write transaction, under its write lock, and handed to the core (write-rules.ts,
 * events/evidence-events.ts), which decides. The store reads facts; it decides nothing.
 *
 * Facts of a chunk are read after the chunk's reference records (accounts, labs, peptides,
 * vendors, claims) are written and before its evidence (batches, reviews, replies): owners and
 * names are as this write leaves them, batch and review states as they were before it.
 */
export interface WriteFacts {
  /** Stored reviews: their vendor and that vendor's owning account (null: unclaimed). */
  reviews: Map<string, { vendorSlug: string; owner: string | null }>;
  /** Review ids that have a reply. */
  replied: Set<string>;
  /** Stored batches, by batchFactKey(vendorSlug, batchId). */
  batches: Map<string, StoredBatchFacts>;
  peptideNames: Map<string, string>;
  labNames: Map<string, string>;
  /** The owning account of each vendor asked for (null: unclaimed). */
  vendorOwners: Map<string, string | null>;
  /** Stored accounts and their plan. */
  accounts: Map<string, Plan>;
}

export interface StoredBatchFacts {
  status: 'approved' | 'pending' | 'rejected';
  purity: number | null;
  /** Lab slug. */
  lab: string | null;
  testMethod: string | null;
  testedAt: string | null;
}

/** Which facts to read: the keys of each kind. */
export interface FactKeys {
  reviews: string[];
  replied: string[];
  batches: { vendorSlug: string; batchId: string }[];
  peptides: string[];
  labs: string[];
  vendors: string[];
  accounts: string[];
}

export const batchFactKey = (vendorSlug: string, batchId: string): string =>
  `${vendorSlug}\n${batchKey(batchId)}`;

const uniq = (xs: Iterable<string>): string[] => [...new Set(xs)];

/** The facts one chunk's rules and events need (see evidence-events.ts and write-rules.ts). */
export function chunkFactKeys(b: ImportBatch): FactKeys {
  const decided = b.batch.filter((r) => r.status !== 'pending');
  const repliedTo = new Set(b.reply.map((r) => r.reviewId));
  return {
    reviews: uniq([...b.review.map((r) => r.id), ...repliedTo]),
    replied: [...repliedTo],
    // Every batch line: a decided one may cause an event, a pending one may meet a stored decision
    // it must not undo (write-rules.ts keepDecisions).
    batches: b.batch.map((r) => ({ vendorSlug: r.vendorSlug, batchId: r.batchId })),
    peptides: uniq(decided.map((r) => r.peptideSlug)),
    labs: uniq(decided.flatMap((r) => (r.lab ? [r.lab] : []))),
    // A review written by this chunk and replied to in it: its vendor's owner checks the reply.
    vendors: uniq(b.review.filter((r) => repliedTo.has(r.id)).map((r) => r.vendorSlug)),
    accounts: [],
  };
}

/** The facts an operator write's preconditions need. */
export function expectationFactKeys(e: WriteExpectations): FactKeys {
  return {
    reviews: uniq(e.newReviews ?? []),
    replied: uniq(e.unrepliedReviews ?? []),
    batches: [...(e.pendingBatches ?? []), ...(e.newBatches ?? [])],
    peptides: [],
    labs: [],
    vendors: [],
    accounts: uniq((e.accounts ?? []).map((a) => a.name)),
  };
}

import { invalidParameter } from '../errors.ts';
import type { RecomputeResult } from '../scoring/recompute-result.ts';

/**
 * The operator decision log: who decided what, when and why. One entry per operator write that is
 * a decision (a batch approved or rejected, an override set or cleared, an account's plan or limits
 * changed), written by the write's own transaction, so it commits or rolls back with the change
 * (as outbox events do, decision 0013). Score history only says who moved a score; a rejection or
 * a cleared override that moves none is recorded here too, with its reason.
 */
export const OPERATOR_ACTIONS = [
  'batch.approved',
  'batch.rejected',
  'override.set',
  'override.cleared',
  'account.plan_changed',
] as const;
export type OperatorActionKind = (typeof OPERATOR_ACTIONS)[number];

/** The batch decisions, for a list of decisions on submissions. */
export const BATCH_DECISIONS = ['batch.approved', 'batch.rejected'] as const satisfies OperatorActionKind[];

/** A composite the write moved. */
export interface ScoreMove {
  previous: number | null;
  next: number;
}

/** What an entry records beside who, when and why; shown as it is. */
export interface ActionDetails {
  /** batch.*: the batch's peptide. */
  peptide?: string;
  /** batch.approved: the test facts the approval wrote. */
  purity?: number | null;
  lab?: string | null;
  testMethod?: string | null;
  testedAt?: string | null;
  /** override.*: the value set, or the value that was cleared. */
  value?: number;
  /** override.set: what it replaced (null: none); override.cleared: who had set it, when, why. */
  replaced?: { value: number; reason: string; setBy: string; setAt: string } | null;
  cleared?: { value: number; reason: string; setBy: string; setAt: string };
  /** account.plan_changed: the account before and the change asked. */
  from?: { plan: string; rateLimitA: number | null; rateLimitB: number | null };
  to?: { plan: string; rateLimitA?: number | null; rateLimitB?: number | null };
  /** The vendor's composite, when the write moved it. */
  score?: ScoreMove;
}

export interface NewOperatorAction {
  actor: string;
  action: OperatorActionKind;
  /** The vendor it concerns; null for an account. */
  vendorSlug: string | null;
  /** What it acted on: a batch id (as stored), an override's field, an account's name. */
  subject: string;
  /** Why, as the operator wrote it (trimmed); null when none was given. */
  reason: string | null;
  details: ActionDetails | null;
}

export interface OperatorAction extends NewOperatorAction {
  /** Increasing in commit order (writes are serialised by the write lock). */
  id: number;
  /** When the write happened (ISO 8601): the time of its change, its history and its events. */
  at: string;
}

/**
 * Builds a write's log entries from what its recomputation changed. The store calls it inside the
 * write transaction, after the recomputation and before the commit, and persists what it returns.
 */
export type ActionLog = (recompute: RecomputeResult) => readonly NewOperatorAction[];

/** Entries one read returns at most. */
export const ACTIONS_LIST_MAX = 200;

/** A read of the log: newest first, narrowed by vendor, subject and kinds, bounded. */
export interface ActionQuery {
  vendorSlug?: string;
  /** With `vendorSlug`, one batch's decisions or one field's overrides; alone, an account's changes. */
  subject?: string;
  kinds?: readonly OperatorActionKind[];
  /** Only entries older than this id (the next page after the last id shown). */
  before?: number;
  /** 1 to ACTIONS_LIST_MAX. */
  limit: number;
}

/** As the console's and the API's override reasons. */
export const ACTION_REASON_MAX = 500;

/**
 * An optional reason as recorded: trimmed, null when absent or blank (a surface that requires one
 * says so itself), `invalid_parameter` naming `reason` when longer than 500 characters.
 */
export function optionalReason(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const reason = raw.trim();
  if (reason.length > ACTION_REASON_MAX) {
    throw invalidParameter('reason', `must be at most ${ACTION_REASON_MAX} characters long.`);
  }
  return reason === '' ? null : reason;
}

/** The vendor's composite move in a recomputation, if it moved. */
export function scoreMoveOf(recompute: RecomputeResult, vendorSlug: string): ScoreMove | undefined {
  const c = recompute.changes.find((x) => x.slug === vendorSlug);
  return c ? { previous: c.previous, next: c.next } : undefined;
}

/** Checks a read's bounds: `invalid_parameter` naming the field, before anything is read. */
export function checkActionQuery(q: ActionQuery): ActionQuery {
  if (!Number.isSafeInteger(q.limit) || q.limit < 1 || q.limit > ACTIONS_LIST_MAX) {
    throw invalidParameter('limit', `must be a whole number from 1 to ${ACTIONS_LIST_MAX}.`);
  }
  if (q.before !== undefined && (!Number.isSafeInteger(q.before) || q.before < 1)) {
    throw invalidParameter('before', 'must be a positive whole number.');
  }
  return q;
}

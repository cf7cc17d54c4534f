import { randomBytes } from 'node:crypto';
import { type AccountChange, changeAccount } from '../accounts/change-account.ts';
import type { Account } from '../accounts/model.ts';
import type { Clock } from '../clock.ts';
import { DomainError, notFound } from '../errors.ts';
import type { EventQuery, StoredEvent } from '../events/model.ts';
import type { OverrideField } from '../import/records.ts';
import { type RecordWriter, type WriteRecordsDeps, writeRecords } from '../import/write-records.ts';
import type { OperatorStore, WriteExpectations } from '../ports.ts';
import type { RecomputeResult } from '../scoring/recompute-result.ts';
import type { ListingPlan } from '../vendors/model.ts';
import {
  type ActionLog,
  type ActionQuery,
  checkActionQuery,
  type OperatorAction,
  optionalReason,
  scoreMoveOf,
} from './actions.ts';
import { requireActor } from './actor.ts';
import type { Actor, BatchAdminView, OverrideEntry, VendorAdminView, WriteOutcome } from './model.ts';

/** The write side the operator needs: the import path, so every write validates and commits alike. */
export interface OperatorWriter extends RecordWriter {
  recomputeAll(opts: { nowIso: string; reason: string }): Promise<RecomputeResult>;
}

export interface ListingRow {
  peptideSlug: string;
  vialMg: number;
  totalUsd: number;
  inStock: boolean;
  /** When the vendor last confirmed the row; defaults to now. */
  updatedAt?: string;
}

export interface BatchCompletion {
  purity?: number;
  lab?: string;
  testMethod?: string;
  testedAt?: string;
}

/** Rows a listing feed may carry in one request. */
export const MAX_LISTING_ROWS = 5000;

/**
 * The operator's use cases, shared by the operator API and the CLI. Every write is expressed as
 * import records and goes through the same validation and the same transaction (upsert,
 * recomputation, history, outbox events, data-version bump), so there is one write path and an
 * operator action can never do what an import could not.
 */
export class Operator {
  constructor(
    private readonly deps: {
      store: OperatorStore;
      writer: OperatorWriter;
      clock: Clock;
      historyLength: number;
      /** Called after a committed write, so this instance serves it at once. */
      afterWrite?: () => Promise<void>;
    },
  ) {}

  private nowIso(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

  private get writeDeps(): WriteRecordsDeps {
    const { writer, clock, afterWrite } = this.deps;
    return { writer, clock, ...(afterWrite ? { afterWrite } : {}) };
  }

  /**
   * Validates records exactly as import lines and applies them in one transaction, where the
   * write rules and the expectations are checked (core/import/write-rules.ts) and, for a decision,
   * its entry in the operator decision log is written (`log`, core/operator/actions.ts).
   */
  private async write(
    records: Record<string, unknown>[],
    reason: string,
    label?: (i: number) => string,
    expect?: WriteExpectations,
    log?: ActionLog,
  ): Promise<WriteOutcome> {
    const recompute = await writeRecords(this.writeDeps, records, {
      reason,
      ...(label ? { label } : {}),
      ...(expect ? { expect } : {}),
      ...(log ? { log } : {}),
    });
    return {
      scoreChanges: recompute.changes.map((c) => ({
        vendorSlug: c.slug,
        previous: c.previous,
        next: c.next,
      })),
    };
  }

  private async requireVendor(slug: string): Promise<VendorAdminView> {
    const v = await this.deps.store.vendor(slug, this.deps.historyLength);
    if (!v) throw notFound('Vendor', slug);
    return v;
  }

  vendor(slug: string): Promise<VendorAdminView> {
    return this.requireVendor(slug);
  }

  /**
   * Changes an existing account's plan or limits (core/accounts/change-account.ts), recorded in the
   * decision log as `account.plan_changed`.
   */
  updateAccount(
    name: string,
    change: AccountChange,
    actor: Actor,
  ): Promise<{ previous: Account; account: Account }> {
    return changeAccount(
      { ...this.writeDeps, accounts: { findByName: (n) => this.deps.store.account(n) } },
      name,
      change,
      actor,
    );
  }

  /**
   * Verified, pending and listing plan. Verifying stamps verifiedAt; unverifying clears it. Only
   * what differs from the vendor's state is written: asking for the current state writes nothing
   * (`changed` false).
   */
  async updateVendor(
    slug: string,
    patch: { verified?: boolean; pending?: boolean; listingPlan?: ListingPlan },
    actor: Actor,
  ): Promise<{ changed: boolean; vendor: VendorAdminView } & WriteOutcome> {
    requireActor(actor);
    const v = await this.requireVendor(slug);
    const record: Record<string, unknown> = { type: 'vendor', slug, name: v.name };
    if (patch.verified !== undefined && patch.verified !== v.verified) {
      record.verified = patch.verified;
      record.verifiedAt = patch.verified ? this.nowIso() : null;
    }
    if (patch.pending !== undefined && patch.pending !== v.pending) record.pending = patch.pending;
    if (patch.listingPlan !== undefined && patch.listingPlan !== v.listingPlan) {
      record.listingPlan = patch.listingPlan;
    }
    if (Object.keys(record).length === 3) return { changed: false, vendor: v, scoreChanges: [] };
    const out = await this.write([record], `vendor updated by ${actor}`);
    return { ...out, changed: true, vendor: await this.requireVendor(slug) };
  }

  /**
   * Gives the vendor's profile to an account (null releases it); the account must exist. The
   * owner may reply to the vendor's reviews. Claiming for the current owner writes nothing.
   */
  async claimVendor(
    slug: string,
    account: string | null,
    actor: Actor,
  ): Promise<{ changed: boolean; vendor: VendorAdminView } & WriteOutcome> {
    requireActor(actor);
    const v = await this.requireVendor(slug);
    if (v.ownerAccount === account) return { changed: false, vendor: v, scoreChanges: [] };
    const out = await this.write([{ type: 'claim', vendorSlug: slug, account }], `claim by ${actor}`);
    return { ...out, changed: true, vendor: await this.requireVendor(slug) };
  }

  listOverrides(vendorSlug?: string): Promise<OverrideEntry[]> {
    return this.deps.store.listOverrides(vendorSlug);
  }

  /** Sets (or replaces) an override; the decision log keeps it with what it replaced. */
  async setOverride(
    slug: string,
    field: OverrideField,
    value: number,
    reason: string,
    actor: Actor,
  ): Promise<WriteOutcome> {
    requireActor(actor);
    const v = await this.requireVendor(slug);
    const replaced = v.overrides.find((o) => o.field === field);
    return this.write(
      [{ type: 'override', vendorSlug: slug, field, value, reason, setBy: actor }],
      `override ${field} by ${actor}`,
      undefined,
      undefined,
      (r) => [
        {
          actor,
          action: 'override.set',
          vendorSlug: slug,
          subject: field,
          // The override's own reason, as stored with it (the record checks its length).
          reason: reason.trim() === '' ? null : reason,
          details: {
            value,
            replaced: replaced ? overrideFacts(replaced) : null,
            ...withScore(r, slug),
          },
        },
      ],
    );
  }

  /**
   * Removes an override. The override row goes; the decision log keeps who cleared it, when and
   * why (`reason`: optional, at most 500 characters), and what it was.
   */
  async clearOverride(
    slug: string,
    field: OverrideField,
    actor: Actor,
    reason?: string | null,
  ): Promise<WriteOutcome> {
    requireActor(actor);
    const why = optionalReason(reason);
    await this.requireVendor(slug);
    const existing = (await this.deps.store.listOverrides(slug)).find((o) => o.field === field);
    if (!existing) {
      throw new DomainError('not_found', `Vendor '${slug}' has no '${field}' override.`);
    }
    return this.write(
      [{ type: 'override', vendorSlug: slug, field, value: null, setBy: actor }],
      `override ${field} cleared by ${actor}`,
      undefined,
      undefined,
      (r) => [
        {
          actor,
          action: 'override.cleared',
          vendorSlug: slug,
          subject: field,
          reason: why,
          details: { value: existing.value, cleared: overrideFacts(existing), ...withScore(r, slug) },
        },
      ],
    );
  }

  async addReview(
    input: {
      id?: string;
      vendorSlug: string;
      rating: number;
      title: string;
      body: string;
      author: string;
      createdAt?: string;
    },
    actor: Actor,
  ): Promise<{ id: string } & WriteOutcome> {
    requireActor(actor);
    await this.requireVendor(input.vendorSlug);
    const id = input.id ?? `rev_${randomBytes(8).toString('hex')}`;
    const out = await this.write(
      [{ type: 'review', ...input, id, createdAt: input.createdAt ?? this.nowIso() }],
      `review added by ${actor}`,
      undefined,
      { newReviews: [id] },
    );
    return { id, ...out };
  }

  /**
   * One reply per review, written by the account that owns the reviewed vendor. Who may reply is
   * the write path's rule (core/import/write-rules.ts), checked inside the write: an unclaimed
   * vendor is `conflict`, another account `invalid_parameter`.
   */
  async reply(
    reviewId: string,
    input: { body: string; account: string; createdAt?: string },
    actor: Actor,
  ): Promise<WriteOutcome> {
    requireActor(actor);
    if (!(await this.deps.store.review(reviewId))) throw notFound('Review', reviewId);
    return this.write(
      [
        {
          type: 'reply',
          reviewId,
          body: input.body,
          account: input.account,
          createdAt: input.createdAt ?? this.nowIso(),
        },
      ],
      `review reply by ${actor}`,
      undefined,
      { unrepliedReviews: [reviewId] },
    );
  }

  pendingBatches(limit: number, offset: number): Promise<{ total: number; items: BatchAdminView[] }> {
    return this.deps.store.pendingBatches(limit, offset);
  }

  /**
   * Approves or rejects a pending submission. Approval needs the test facts (purity, lab, method,
   * date); what the submission lacks, the operator supplies in `completion`. The decision log keeps
   * who decided, when and why (`reason`: optional, at most 500 characters), whether or not a score
   * moved.
   */
  async reviewBatch(
    vendorSlug: string,
    batchId: string,
    decision: 'approve' | 'reject',
    completion: BatchCompletion,
    actor: Actor,
    reason?: string | null,
  ): Promise<{ batch: BatchAdminView } & WriteOutcome> {
    requireActor(actor);
    const why = optionalReason(reason);
    await this.requireVendor(vendorSlug);
    const b = await this.deps.store.batch(vendorSlug, batchId);
    if (!b) throw notFound('Batch', batchId);
    // The write re-checks this under its lock (pendingBatches); answering first here keeps a
    // decided batch from being reported as lacking the test facts an approval needs.
    if (b.status !== 'pending') {
      throw new DomainError(
        'conflict',
        `Batch '${b.batchId}' of '${vendorSlug}' is ${b.status}, not pending.`,
      );
    }
    const tested = {
      purity: completion.purity ?? b.purity,
      lab: completion.lab ?? b.lab,
      testMethod: completion.testMethod ?? b.testMethod,
      testedAt: completion.testedAt ?? b.testedAt,
    };
    const record: Record<string, unknown> = {
      type: 'batch',
      vendorSlug,
      batchId: b.batchId,
      peptideSlug: b.peptideSlug,
      status: decision === 'approve' ? 'approved' : 'rejected',
      ...tested,
      source: b.source,
      sourceUrl: b.sourceUrl,
      submittedAt: b.submittedAt,
    };
    const approve = decision === 'approve';
    const out = await this.write(
      [record],
      approve ? `batch approved by ${actor}` : `batch rejected by ${actor}`,
      undefined,
      { pendingBatches: [{ vendorSlug, batchId: b.batchId }] },
      (r) => [
        {
          actor,
          action: approve ? 'batch.approved' : 'batch.rejected',
          vendorSlug,
          subject: b.batchId,
          reason: why,
          details: {
            peptide: b.peptideSlug,
            ...(approve ? tested : {}),
            ...withScore(r, vendorSlug),
          },
        },
      ],
    );
    const after = await this.deps.store.batch(vendorSlug, batchId);
    return { ...out, batch: after! };
  }

  /** A vendor's live price feed: each row replaces the baseline row of the same peptide and vial. */
  async putListings(
    vendorSlug: string,
    rows: readonly ListingRow[],
    actor: Actor,
  ): Promise<{ rows: number } & WriteOutcome> {
    requireActor(actor);
    await this.requireVendor(vendorSlug);
    if (rows.length === 0 || rows.length > MAX_LISTING_ROWS) {
      throw new DomainError(
        'invalid_parameter',
        `Parameter 'rows' must hold 1 to ${MAX_LISTING_ROWS} listings.`,
        { parameter: 'rows' },
      );
    }
    const now = this.nowIso();
    const out = await this.write(
      rows.map((r) => ({
        type: 'price',
        vendorSlug,
        peptideSlug: r.peptideSlug,
        vialMg: r.vialMg,
        source: 'live',
        totalUsd: r.totalUsd,
        inStock: r.inStock,
        updatedAt: r.updatedAt ?? now,
      })),
      `listing feed by ${actor}`,
      (i) => `rows[${i}]`,
    );
    return { rows: rows.length, ...out };
  }

  async recompute(actor: Actor): Promise<RecomputeResult> {
    requireActor(actor);
    const r = await this.deps.writer.recomputeAll({ nowIso: this.nowIso(), reason: `recompute by ${actor}` });
    await this.deps.afterWrite?.();
    return r;
  }

  events(q: EventQuery): Promise<StoredEvent[]> {
    return this.deps.store.events(q);
  }

  /**
   * The operator decision log, newest first: a vendor's (`vendorSlug`), one batch's or field's
   * (`subject` with it), an account's (`subject` alone), of some kinds; at most 200 per read.
   */
  async actions(q: ActionQuery): Promise<OperatorAction[]> {
    return this.deps.store.actions(checkActionQuery(q));
  }
}

const overrideFacts = (o: OverrideEntry) => ({
  value: o.value,
  reason: o.reason,
  setBy: o.setBy,
  setAt: o.setAt,
});

const withScore = (r: RecomputeResult, slug: string) => {
  const score = scoreMoveOf(r, slug);
  return score ? { score } : {};
};

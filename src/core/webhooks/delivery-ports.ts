import type { StoredEvent } from '../events/model.ts';
import type { Subscription } from './model.ts';
import type { AttemptRecord, MessageFacts, SendableMessage } from './ports.ts';

/**
 * The delivery worker's storage (src/worker/, storage/stores/delivery-store.ts): the fan-out of the
 * outbox into messages, the claims on due messages, the outcomes and the retention of the log.
 * The management side (endpoints, the delivery log, redeliver) is WebhookStore (ports.ts).
 */

/** An enabled endpoint of the account that owns `vendorSlug`: a candidate for that vendor's events. */
export interface FanOutTarget {
  endpointId: string;
  vendorSlug: string;
  events: Subscription;
  /** A disabled endpoint gets its messages as `failed`, for `recover` once it is enabled again. */
  enabled: boolean;
}

/** One message the fan-out creates: one event for one endpoint, due at once. */
export interface NewMessage extends MessageFacts {
  /** `pending` (due at nextAttemptAtMs), or `failed` when its endpoint is disabled. */
  status: 'pending' | 'failed';
  nextAttemptAtMs: number | null;
}

/** Decides, for a page of events and the targets of their vendors, which messages to create. */
export type FanOutPlanner = (
  events: readonly StoredEvent[],
  targets: readonly FanOutTarget[],
) => NewMessage[];

export interface FanOutResult {
  /** Events read past the cursor (and passed). */
  events: number;
  /** Messages created (one already there for the same endpoint and event is not counted). */
  messages: number;
  /** Endpoints that received a message: they have work due now. */
  endpointIds: string[];
}

/** An endpoint with messages due, its account, and since when the oldest has waited (epoch ms). */
export interface DueEndpoint {
  endpointId: string;
  accountId: number;
  oldestDueMs: number;
}

/** Which endpoints with due messages a worker asks for. */
export interface DueQuery {
  nowMs: number;
  /** Plans whose accounts have webhooks (WEBHOOK_PLANS): other accounts' endpoints are left out. */
  plans: readonly string[];
  /** Endpoints this worker has no room for. */
  excludeEndpoints: readonly string[];
  /** Accounts this worker has no room for: all their endpoints are left out. */
  excludeAccounts: readonly number[];
  limit: number;
}

/** A claimed message, ready to send: the lease's token and the endpoint's health as stored. */
export interface ClaimedMessage extends SendableMessage {
  /** The endpoint's account: the worker counts its attempts in flight per account too. */
  accountId: number;
  claimToken: string;
  /** The endpoint's failure streak (ISO 8601) when claimed; null while it succeeds. */
  failingSince: string | null;
}

/** How far the fan-out is behind the outbox (the metrics read it at scrape time). */
export interface OutboxLag {
  /** Events past the fan-out cursor, counted up to the limit asked for (the limit means "at least"). */
  events: number;
  /** When the oldest of them was written (epoch ms); null when there is none. */
  oldestAtMs: number | null;
}

export interface DeliveryStore {
  /** Whether the outbox holds events past the fan-out cursor: a cheap read that takes no lock. */
  outboxAhead(): Promise<boolean>;
  /**
   * Events past the fan-out cursor, at most `limit` counted, and the oldest one's time: reads of
   * the outbox's primary key from the cursor on, bounded by `limit`, taking no lock.
   */
  outboxLag(limit: number): Promise<OutboxLag>;
  /**
   * Reads up to `batchSize` events past the cursor, creates the messages `plan` decides and moves
   * the cursor past them, in one transaction that first locks the cursor: two workers never fan
   * out the same event twice. The targets are the endpoints of owners whose plan is one of
   * `plans` (WEBHOOK_PLANS): another account's endpoints get no message at all. Returns what it
   * did; `events < batchSize` means it caught up.
   */
  fanOut(plan: FanOutPlanner, batchSize: number, plans: readonly string[]): Promise<FanOutResult>;
  /**
   * Enabled endpoints of accounts on one of `q.plans`, with pending messages due at `q.nowMs`, the
   * longest-waiting first, at most `q.limit`, leaving out those this worker has no room for.
   */
  dueEndpoints(q: DueQuery): Promise<DueEndpoint[]>;
  /**
   * Claims, per endpoint, at most its number of due pending messages (oldest due first) of enabled
   * endpoints whose account is on one of `plans` (checked again here: a plan may change between
   * dueEndpoints and the claim): each gets a fresh token and `next_attempt_at = leaseUntilMs`, so a
   * claim whose worker died lapses by itself. Never returns a message another claim holds.
   */
  claim(
    slots: ReadonlyMap<string, number>,
    nowMs: number,
    leaseUntilMs: number,
    plans: readonly string[],
  ): Promise<ClaimedMessage[]>;
  /**
   * Writes the outcomes of several attempts in one transaction (each as WebhookStore.record
   * would). An outcome whose message is gone (deleted with its endpoint) is skipped; returns how
   * many were.
   */
  recordAll(records: readonly AttemptRecord[]): Promise<number>;
  /**
   * Deletes up to `limit` settled messages (succeeded or failed), with their attempts, created and
   * last attempted before `beforeIso`. Returns how many; fewer than `limit` means none is left.
   */
  purgeSettled(beforeIso: string, limit: number): Promise<number>;
}

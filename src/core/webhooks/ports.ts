import type { EventType } from '../events/model.ts';
import type {
  Attempt,
  Delivery,
  DisabledReason,
  EndpointSecrets,
  MessageStatus,
  Subscription,
  WebhookEndpoint,
} from './model.ts';

/** Changes to an endpoint's own fields (PATCH) and to its state (the worker, a rotation). */
export interface EndpointChanges {
  url?: string;
  events?: Subscription;
  description?: string;
  enabled?: boolean;
  disabledReason?: DisabledReason | null;
  disabledAt?: string | null;
  failingSince?: string | null;
}

export interface DeliveryQuery {
  status?: MessageStatus;
  eventType?: string;
  /** Newest first; at most this many. */
  limit: number;
  offset: number;
}

export interface EventListQuery {
  accountId: number;
  /** ISO 8601: events committed at or after this (the last 30 days). */
  since: string;
  type?: EventType;
  vendorSlug?: string;
  /** true: every message to the account's endpoints succeeded; false: one has not (yet). */
  deliverySuccess?: boolean;
  limit: number;
  offset: number;
}

/** An event as an account's event log shows it, with how its deliveries went. */
export interface AccountEvent {
  id: string;
  type: EventType;
  vendorSlug: string;
  createdAt: string;
  data: unknown;
  /** Messages of this event to the account's endpoints, by status. */
  deliveries: { succeeded: number; pending: number; failed: number };
}

/** A message as sending it needs it: the exact body, the event id, the endpoint's target and secrets. */
export interface SendableMessage {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: MessageStatus;
  attempts: number;
  url: string;
  secrets: EndpointSecrets;
}

/**
 * What one attempt changes, written in one transaction: the attempt row, the message's state and,
 * when the verdict says so, the endpoint's health. `claimToken` guards the message update: a
 * worker whose lease lapsed (another worker took the message over) records its attempt but no
 * longer moves the message.
 */
export interface AttemptRecord {
  messageId: string;
  endpointId: string;
  claimToken: string | null;
  attempt: Attempt;
  /**
   * The message's next state; null leaves it as it is (a failed redeliver). The store counts the
   * attempt in `attempts` either way.
   */
  message: { status: MessageStatus; nextAttemptAtMs: number | null } | null;
  /** null: leave the endpoint as it is. */
  endpoint: EndpointChanges | null;
}

/** What a message is, whoever creates it (the fan-out's NewMessage adds when it is due). */
export interface MessageFacts {
  /** `dlv_` + 24 hex. */
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The exact body every attempt sends. */
  payload: string;
  /** ISO 8601. */
  createdAt: string;
}

/** Storage of endpoints, messages and attempts (storage/stores/webhook-store.ts). */
export interface WebhookStore {
  countEndpoints(accountId: number): Promise<number>;
  /**
   * Inserts the endpoint unless its account already has `maxPerAccount`; false then. Counted and
   * inserted under the account's write lock, so concurrent creates cannot pass the cap together.
   */
  insertEndpoint(e: WebhookEndpoint, secret: string, maxPerAccount: number): Promise<boolean>;
  listEndpoints(accountId: number): Promise<WebhookEndpoint[]>;
  /** The account's endpoint; null for another account's or none. */
  getEndpoint(accountId: number, id: string): Promise<WebhookEndpoint | null>;
  /** Updates the account's endpoint; null when it is not the account's. */
  updateEndpoint(
    accountId: number,
    id: string,
    c: EndpointChanges,
    nowIso: string,
  ): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint with its messages and attempts; false when not the account's. */
  deleteEndpoint(accountId: number, id: string): Promise<boolean>;
  secrets(endpointId: string): Promise<EndpointSecrets | null>;
  /** Sets a new current secret; the old one keeps signing until `previousUntil` (null: at once). */
  rotateSecret(
    endpointId: string,
    secret: string,
    previousUntil: string | null,
    nowIso: string,
  ): Promise<void>;
  listDeliveries(endpointId: string, q: DeliveryQuery): Promise<{ total: number; items: Delivery[] }>;
  /** One message of the endpoint, ready to send; null when it is not the endpoint's. */
  sendable(endpointId: string, deliveryId: string): Promise<SendableMessage | null>;
  /** A message created already settled by its one attempt (the test event). */
  insertSettled(m: MessageFacts): Promise<void>;
  record(r: AttemptRecord): Promise<void>;
  /**
   * Failed messages of the endpoint created at or after `since` become pending, due now. Test
   * events are not recovered: they were answers to a request, not events the account missed.
   */
  requeueFailed(endpointId: string, since: string, nowMs: number): Promise<number>;
  listEvents(q: EventListQuery): Promise<{ total: number; items: AccountEvent[] }>;
}

import type { EventType } from '../events/model.ts';

/**
 * Webhooks (issue [7], decision 0020): an account's endpoints, one message per (endpoint, event)
 * and every attempt to deliver it. Delivery is at-least-once from the outbox; docs/webhooks.md.
 */

/** The test event's type: not an outbox event, sent only by POST /v1/webhooks/{id}/test. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** What an endpoint subscribes to: event types, or every type (`["*"]`, also types added later). */
export type Subscription = readonly EventType[] | readonly ['*'];

/** Why an endpoint is disabled: 410 Gone, failing without a success too long, or by its owner. */
export type DisabledReason = 'gone' | 'failing' | 'manual';

export interface WebhookEndpoint {
  /** `ep_` + 24 hex. */
  id: string;
  accountId: number;
  url: string;
  events: Subscription;
  description: string;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  /** ISO 8601; null while enabled. */
  disabledAt: string | null;
  /** The first failure since the last success (ISO 8601); null while deliveries succeed. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The signing secrets: the current one, and during a rotation's overlap the one it replaced. */
export interface EndpointSecrets {
  current: string;
  previous: string | null;
  /** ISO 8601: the previous secret signs until then. */
  previousUntil: string | null;
}

export type MessageStatus = 'pending' | 'succeeded' | 'failed';

/** What started an attempt: the worker (first try or a retry), a redeliver, or a test. */
export type AttemptTrigger = 'scheduled' | 'redeliver' | 'test';

export interface Attempt {
  attemptedAt: string;
  /** The receiver's HTTP status; null when none came (timeout, refused, connection error). */
  httpStatus: number | null;
  latencyMs: number;
  /** Why it failed, in words; null on success. */
  error: string | null;
  trigger: AttemptTrigger;
}

/** One event for one endpoint: what `GET /v1/webhooks/{id}/deliveries` lists. */
export interface Delivery {
  /** `dlv_` + 24 hex. */
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: MessageStatus;
  attemptCount: number;
  /** When the next retry is due (ISO 8601); null once settled. */
  nextAttemptAt: string | null;
  createdAt: string;
  attempts: Attempt[];
}

/** One HTTP request to a receiver. */
export interface OutboundRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  timeoutMs: number;
}

/** What came back, or why nothing did. Never throws: a failure is an answer. */
export interface OutboundResponse {
  /** null when no HTTP status arrived. */
  status: number | null;
  latencyMs: number;
  /** Why the attempt failed without a status (timeout, refused address, connection error). */
  error: string | null;
  /** The raw `Retry-After` header, if any. */
  retryAfter: string | null;
}

/**
 * The one guarded outbound HTTP client (adapters/webhook-http): https to public addresses only
 * (checked on the connected socket), no redirects, bounded response, time limit.
 */
export interface WebhookSender {
  send(req: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

/** Resolves a host name to its addresses (registration-time SSRF check). */
export type HostResolver = (host: string) => Promise<string[]>;

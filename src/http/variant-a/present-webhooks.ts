import type { AttemptAnswer } from '../../core/webhooks/manage-webhooks.ts';
import type { Attempt, Delivery, WebhookEndpoint } from '../../core/webhooks/model.ts';
import type { AccountEvent } from '../../core/webhooks/ports.ts';

/*
 * Variant A's webhook answers: snake_case, ISO 8601 with milliseconds, every key present (null
 * where a state has no value: a webhook endpoint's shape does not vary with its state). The
 * account id stays inside: the caller's key already says whose endpoints these are.
 */

export function presentEndpoint(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    events: [...e.events],
    description: e.description,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    disabled_at: e.disabledAt,
    failing_since: e.failingSince,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

/** The one answer besides a rotation's that carries the secret. */
export const presentCreated = (r: { endpoint: WebhookEndpoint; secret: string }) => ({
  ...presentEndpoint(r.endpoint),
  secret: r.secret,
});

export const presentEndpointList = (endpoints: WebhookEndpoint[]) => ({
  data: endpoints.map(presentEndpoint),
  total: endpoints.length,
});

export const presentSecret = (r: { secret: string; previousSecretExpiresAt: string | null }) => ({
  secret: r.secret,
  previous_secret_expires_at: r.previousSecretExpiresAt,
});

export const presentAttempt = (a: Attempt) => ({
  attempted_at: a.attemptedAt,
  http_status: a.httpStatus,
  latency_ms: Math.max(0, Math.round(a.latencyMs)),
  error: a.error,
  trigger: a.trigger,
});

export const presentAttemptAnswer = (r: AttemptAnswer) => ({
  delivery_id: r.deliveryId,
  event_id: r.eventId,
  attempt: presentAttempt(r.attempt),
  endpoint: presentEndpoint(r.endpoint),
});

export const presentDelivery = (d: Delivery) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempt_count: d.attemptCount,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
  attempts: d.attempts.map(presentAttempt),
});

export const presentDeliveryList = (r: { total: number; items: Delivery[] }, page: number) => ({
  data: r.items.map(presentDelivery),
  total: r.total,
  page,
});

/**
 * An event of the account's log. `created` is Unix seconds, as the webhook payload has it, so a
 * receiver can match what it got with what is listed. `delivery_success` sums up the messages:
 * null when none was made (no endpoint subscribed, or the event came before any endpoint).
 */
export function presentAccountEvent(e: AccountEvent) {
  const { succeeded, pending, failed } = e.deliveries;
  return {
    id: e.id,
    type: e.type,
    created: Math.floor(Date.parse(e.createdAt) / 1000),
    data: e.data,
    vendor_slug: e.vendorSlug,
    delivery_success: succeeded + pending + failed === 0 ? null : pending + failed === 0,
    deliveries: { succeeded, pending, failed },
  };
}

export const presentEventList = (r: { total: number; items: AccountEvent[] }, page: number) => ({
  data: r.items.map(presentAccountEvent),
  total: r.total,
  page,
});

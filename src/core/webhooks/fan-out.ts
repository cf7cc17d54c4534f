import { PLANS, type Plan } from '../accounts/model.ts';
import { planAllows } from '../accounts/plans.ts';
import { isoTime } from '../clock.ts';
import { webhookPayload } from '../events/envelope.ts';
import type { StoredEvent } from '../events/model.ts';
import type { FanOutPlanner, FanOutTarget, NewMessage } from './delivery-ports.ts';
import { subscribes } from './endpoint-rules.ts';
import { newDeliveryId } from './secrets.ts';

/**
 * The plans whose accounts have webhooks (the rule is plans.ts': webhooks need `enterprise`
 * access, as their API does). Only these accounts' endpoints get messages at fan-out, and a claim
 * skips the endpoints of an account whose plan no longer allows it: a downgraded account, which
 * can no longer manage its endpoints (403), receives nothing, and its pending messages wait for an
 * upgrade back. The store is handed this list; no plan name is written in its SQL.
 */
export const WEBHOOK_PLANS: readonly Plan[] = PLANS.filter((p) => planAllows(p, 'enterprise'));

/**
 * Who receives an event: every endpoint of the account that owns the event's vendor, when that
 * account's plan has webhooks (WEBHOOK_PLANS; the store finds those), that subscribes to the
 * event's type (decided here). One message per endpoint, due at once. An endpoint that is disabled still gets its message, as `failed` with no attempt: nothing
 * is lost while a receiver is down, the delivery log and `/v1/events` show what it missed, and
 * `recover` sends it once the endpoint is enabled again. The body is the envelope
 * `{id, type, created, data}` serialised once: every attempt, retry and redeliver sends these exact
 * bytes, so the signature a receiver checks is over the same body each time.
 */
export function planFanOut(
  events: readonly StoredEvent[],
  targets: readonly FanOutTarget[],
  nowMs: number,
): NewMessage[] {
  const byVendor = new Map<string, FanOutTarget[]>();
  for (const t of targets) {
    const list = byVendor.get(t.vendorSlug);
    if (list) list.push(t);
    else byVendor.set(t.vendorSlug, [t]);
  }
  const createdAt = isoTime(nowMs);
  const out: NewMessage[] = [];
  for (const e of events) {
    const receivers = (byVendor.get(e.vendorSlug) ?? []).filter((t) => subscribes(t.events, e.type));
    if (receivers.length === 0) continue;
    const payload = JSON.stringify(webhookPayload(e));
    for (const t of receivers) {
      out.push({
        id: newDeliveryId(),
        endpointId: t.endpointId,
        eventId: e.id,
        eventType: e.type,
        payload,
        createdAt,
        status: t.enabled ? 'pending' : 'failed',
        nextAttemptAtMs: t.enabled ? nowMs : null,
      });
    }
  }
  return out;
}

/** The planner a worker hands the store, with its clock's time. */
export const fanOutPlanner =
  (nowMs: () => number): FanOutPlanner =>
  (events, targets) =>
    planFanOut(events, targets, nowMs());

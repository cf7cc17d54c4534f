import { isoTime } from '../clock.ts';
import type { Attempt, AttemptTrigger, WebhookSender } from './model.ts';
import type { AttemptRecord, EndpointChanges, SendableMessage } from './ports.ts';
import { judge, retryDelay } from './retry-policy.ts';
import { deliveryHeaders } from './signing.ts';

/** What an attempt needs to know beyond the message: the one policy of retries and disabling. */
export interface AttemptPolicy {
  retrySchedule: readonly number[];
  timeoutMs: number;
  disableAfterMs: number;
  random?: () => number;
}

/** The endpoint's health as the attempt found it. */
export interface EndpointHealth {
  failingSince: string | null;
}

/**
 * Sends one message once and says what that changes: the attempt, the message's next state and
 * the endpoint's health. The worker, a redeliver and a test all go through here, so the rules of
 * success, retry, `Retry-After`, 410 and the 5-day disable live in one place.
 */
export async function attemptOnce(
  m: SendableMessage,
  health: EndpointHealth,
  deps: { sender: WebhookSender; nowMs: () => number; policy: AttemptPolicy },
  trigger: AttemptTrigger,
  claimToken: string | null,
): Promise<AttemptRecord> {
  const startedMs = deps.nowMs();
  const res = await deps.sender.send({
    url: m.url,
    headers: deliveryHeaders(m.secrets, m.eventId, m.payload, startedMs),
    body: m.payload,
    timeoutMs: deps.policy.timeoutMs,
  });
  const doneMs = deps.nowMs();
  const verdict = judge(res, doneMs);
  const attempt: Attempt = {
    attemptedAt: isoTime(startedMs),
    httpStatus: res.status,
    latencyMs: res.latencyMs,
    error: verdict.kind === 'success' ? null : (res.error ?? `HTTP ${res.status} (not 2xx)`),
    trigger,
  };
  if (verdict.kind === 'success') {
    return {
      messageId: m.id,
      endpointId: m.endpointId,
      claimToken,
      attempt,
      message: { status: 'succeeded', nextAttemptAtMs: null },
      endpoint: health.failingSince !== null ? { failingSince: null } : null,
    };
  }
  const failingSince = health.failingSince ?? attempt.attemptedAt;
  const endpoint: EndpointChanges = {};
  if (health.failingSince === null) endpoint.failingSince = failingSince;
  if (verdict.disableEndpoint) Object.assign(endpoint, disabled('gone', doneMs));
  else if (doneMs - Date.parse(failingSince) >= deps.policy.disableAfterMs) {
    Object.assign(endpoint, disabled('failing', doneMs));
  }
  return {
    messageId: m.id,
    endpointId: m.endpointId,
    claimToken,
    attempt,
    message: nextState(trigger, m.attempts + 1, verdict.retryAfterMs, doneMs, deps.policy),
    endpoint: Object.keys(endpoint).length ? endpoint : null,
  };
}

/**
 * After a failure: the worker's attempts follow the schedule; a test is settled by its one try;
 * a redeliver leaves the message's own state (a failed redeliver of a delivered message does not
 * undo the earlier success, and a pending message keeps its schedule).
 */
function nextState(
  trigger: AttemptTrigger,
  attempts: number,
  retryAfterMs: number | null,
  nowMs: number,
  policy: AttemptPolicy,
): AttemptRecord['message'] {
  if (trigger === 'test') return { status: 'failed', nextAttemptAtMs: null };
  if (trigger === 'redeliver') return null;
  const delay = retryDelay(policy.retrySchedule, attempts, retryAfterMs, policy.random);
  return delay === null
    ? { status: 'failed', nextAttemptAtMs: null }
    : { status: 'pending', nextAttemptAtMs: nowMs + delay };
}

const disabled = (reason: 'gone' | 'failing', nowMs: number): EndpointChanges => ({
  enabled: false,
  disabledReason: reason,
  disabledAt: isoTime(nowMs),
});

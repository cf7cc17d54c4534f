import type { OutboundResponse } from './model.ts';

/**
 * What one attempt's answer means for the message and its endpoint. The only place that decides:
 * 2xx is success; anything else, a timeout or a connection error is a failure; 410 disables the
 * endpoint at once; `Retry-After` on 429 and 503 sets the next delay.
 */
export type AttemptVerdict =
  | { kind: 'success' }
  | { kind: 'failure'; disableEndpoint: boolean; retryAfterMs: number | null };

/** Longest `Retry-After` honoured: a receiver cannot park a message beyond a day per step. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

export function judge(r: OutboundResponse, nowMs: number): AttemptVerdict {
  if (r.status !== null && r.status >= 200 && r.status <= 299) return { kind: 'success' };
  const honoured = r.status === 429 || r.status === 503;
  return {
    kind: 'failure',
    disableEndpoint: r.status === 410,
    retryAfterMs: honoured && r.retryAfter !== null ? parseRetryAfter(r.retryAfter, nowMs) : null,
  };
}

/** `Retry-After`: delta-seconds or an HTTP date; null when unreadable. Clamped to [0, a day]. */
export function parseRetryAfter(value: string, nowMs: number): number | null {
  const v = value.trim();
  let ms: number;
  // Any run of digits is delta-seconds; a huge one is clamped like any other long wait, not
  // ignored (Number('9'.repeat(400)) is Infinity, which the clamp turns into a day).
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    // HTTP dates are GMT; asctime form (`Sun Nov  6 08:49:37 1994`) names no zone, and
    // Date.parse would read it as the server's local time.
    const at = Date.parse(/\b(GMT|UTC|UT|Z)$|[+-]\d{4}$/i.test(v) ? v : `${v} GMT`);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return null;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/**
 * When to try again after the `attemptsMade`-th failed attempt: the schedule's step with ±10 %
 * jitter (so a receiver that failed for everyone is not hit by everyone at once), or later when the
 * receiver's `Retry-After` asks for more. Never sooner than the step: `Retry-After: 0` on every 429
 * would otherwise spend the whole schedule in seconds and leave the message failed.
 * null: retries are exhausted.
 */
export function retryDelay(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  const step = schedule[attemptsMade - 1];
  if (step === undefined) return null;
  const scheduled = Math.max(1, Math.round(step * (0.9 + 0.2 * random())));
  return retryAfterMs === null ? scheduled : Math.max(scheduled, retryAfterMs, 1000);
}

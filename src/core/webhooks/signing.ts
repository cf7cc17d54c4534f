import { createHmac } from 'node:crypto';
import type { EndpointSecrets } from './model.ts';
import { secretKey } from './secrets.ts';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `{id}.{timestamp}.{body}` keyed with the secret's decoded bytes, sent as `v1,<base64>`; during a
 * rotation's overlap one signature per secret, space-separated, so a receiver holding either
 * secret verifies.
 */
export function sign(secret: string, id: string, timestampS: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/** The secrets that sign at `nowMs`: the current one, and the previous one until its overlap ends. */
export function signingSecrets(s: EndpointSecrets, nowMs: number): string[] {
  const overlap = s.previous !== null && s.previousUntil !== null && Date.parse(s.previousUntil) > nowMs;
  return overlap ? [s.current, s.previous!] : [s.current];
}

/** The headers of one attempt. `webhook-id` is the event's id: the same on every retry. */
export function deliveryHeaders(
  secrets: EndpointSecrets,
  eventId: string,
  body: string,
  nowMs: number,
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'PureRank-Webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signingSecrets(secrets, nowMs)
      .map((s) => sign(s, eventId, timestamp, body))
      .join(' '),
  };
}

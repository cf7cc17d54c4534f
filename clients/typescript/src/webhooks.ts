import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest distance between webhook-timestamp and now, seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, ms since the epoch (default Date.now()); for tests and replays. */
  now?: number;
}

export type VerifyResult =
  | { ok: true; id: string; timestamp: number }
  | { ok: false; reason: 'missing_headers' | 'timestamp_out_of_range' | 'no_matching_signature' };

const header = (h: WebhookHeaders, name: string): string | undefined => {
  if (h instanceof Headers) return h.get(name) ?? undefined;
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Verifies a PureRank webhook (Standard Webhooks, docs/webhooks.md): `webhook-signature` holds
 * one or more space-separated `v1,<base64 HMAC-SHA256>` over `{webhook-id}.{webhook-timestamp}.{body}`,
 * keyed with the base64-decoded part of the `whsec_` secret; during a secret rotation there are
 * two. `body` must be the raw bytes as received: re-serialised JSON does not verify. The
 * timestamp must be within the tolerance of now, so a captured request cannot be replayed later.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  opts: VerifyOptions = {},
): VerifyResult {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !ts || !/^\d+$/.test(ts) || !signatures) return { ok: false, reason: 'missing_headers' };
  const timestamp = Number(ts);
  const now = (opts.now ?? Date.now()) / 1000;
  if (Math.abs(now - timestamp) > (opts.toleranceSeconds ?? 300)) {
    return { ok: false, reason: 'timestamp_out_of_range' };
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key)
    .update(`${id}.${ts}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
  // Every candidate is compared (no early exit on the version), each in constant time.
  let matched = false;
  for (const s of signatures.split(' ')) {
    const comma = s.indexOf(',');
    if (comma < 0 || s.slice(0, comma) !== 'v1') continue;
    const got = Buffer.from(s.slice(comma + 1), 'base64');
    if (got.length === expected.length && timingSafeEqual(got, expected)) matched = true;
  }
  return matched ? { ok: true, id, timestamp } : { ok: false, reason: 'no_matching_signature' };
}

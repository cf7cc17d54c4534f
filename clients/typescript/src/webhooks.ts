import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest distance between webhook-timestamp and now, seconds (default 300); finite, ≥ 0. */
  toleranceSeconds?: number;
  /** Now, ms since the epoch (default Date.now()); for tests and replays. Finite. */
  now?: number;
}

export type VerifyResult =
  | { ok: true; id: string; timestamp: number }
  | {
      ok: false;
      reason: 'missing_headers' | 'ambiguous_headers' | 'timestamp_out_of_range' | 'no_matching_signature';
    };

const PREFIX = 'whsec_';
/** The fewest key bytes accepted; PureRank's secrets have 32. */
const MIN_SECRET_BYTES = 16;
/** Canonical padded base64: whole quanta, `=` only as the last one or two characters. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key of a `whsec_` secret. Anything else throws: an empty, truncated or mistyped
 * secret would otherwise decode to a short or empty key, and a signature anyone can compute
 * with an empty key would verify. The message never contains the secret.
 */
function secretKey(secret: unknown): Buffer {
  if (typeof secret !== 'string' || secret === '') {
    throw new Error('verifyWebhook: the webhook secret is missing (expected "whsec_" + base64)');
  }
  const b64 = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : null;
  const key = b64 !== null && BASE64.test(b64) ? Buffer.from(b64, 'base64') : null;
  // The round trip refuses non-zero bits after the last byte, so one secret has one spelling.
  if (key === null || key.toString('base64') !== b64) {
    throw new Error(
      'verifyWebhook: the webhook secret is not "whsec_" followed by padded base64, as PureRank shows it',
    );
  }
  if (key.length < MIN_SECRET_BYTES) {
    throw new Error(
      `verifyWebhook: the webhook secret decodes to ${key.length} bytes; at least ${MIN_SECRET_BYTES} are required`,
    );
  }
  return key;
}

/**
 * The replay window's options, checked before anything is compared. Every comparison with NaN is
 * false, so a NaN tolerance or now (a `Number(process.env.X)` of an unset variable) would let a
 * timestamp of any age through: that throws, as a bad secret does, and so do Infinity and a
 * negative tolerance, which turn the check off or make it refuse everything.
 */
function replayWindow(opts: VerifyOptions): { toleranceSeconds: number; nowSeconds: number } {
  const { toleranceSeconds = 300, now = Date.now() } = opts;
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new Error(
      `verifyWebhook: opts.toleranceSeconds must be a finite number of seconds, 0 or more (got ${String(toleranceSeconds)})`,
    );
  }
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new Error(
      `verifyWebhook: opts.now must be a finite number of ms since the epoch (got ${String(now)})`,
    );
  }
  return { toleranceSeconds, nowSeconds: now / 1000 };
}

/**
 * Every value of a header. A Headers object has already joined repeated lines (", "); a plain
 * object (Node's IncomingHttpHeaders, or one built by hand) is searched without regard to case,
 * and an array contributes all its values.
 */
function headerValues(h: WebhookHeaders, name: string): string[] {
  if (h instanceof Headers) {
    const v = h.get(name);
    return v === null ? [] : [v];
  }
  const out: string[] = [];
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() !== name || v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/** The one value of a header; `ambiguous` when it came with two different values. */
function single(h: WebhookHeaders, name: string): string | undefined | 'ambiguous' {
  const values = [...new Set(headerValues(h, name))];
  return values.length > 1 ? 'ambiguous' : values[0];
}

/**
 * Verifies a PureRank webhook (Standard Webhooks, docs/webhooks.md): `webhook-signature` holds
 * one or more space-separated `v1,<base64 HMAC-SHA256>` over `{webhook-id}.{webhook-timestamp}.{body}`,
 * keyed with the base64-decoded part of the `whsec_` secret; during a secret rotation there are
 * two. `body` must be the raw bytes as received: re-serialised JSON does not verify. The
 * timestamp must be within the tolerance of now, so a captured request cannot be replayed later.
 *
 * Throws (whatever the request) when `secret` is missing or not `whsec_` + padded base64 of at
 * least 16 bytes, or when `opts.toleranceSeconds` or `opts.now` is not a finite number (or the
 * tolerance is negative): that is a configuration error, not a bad request. Header names are matched
 * without regard to case; every `webhook-signature` value is considered; a `webhook-id` or
 * `webhook-timestamp` given twice with different values is `ambiguous_headers`.
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  opts: VerifyOptions = {},
): VerifyResult {
  const key = secretKey(secret);
  const replay = replayWindow(opts);
  const id = single(headers, 'webhook-id');
  const ts = single(headers, 'webhook-timestamp');
  if (id === 'ambiguous' || ts === 'ambiguous') return { ok: false, reason: 'ambiguous_headers' };
  // Each line may hold several signatures: all of them, from all lines, are candidates.
  const signatures = headerValues(headers, 'webhook-signature')
    .join(' ')
    .split(/\s+/)
    .filter((s) => s !== '');
  if (!id || !ts || !/^\d+$/.test(ts) || signatures.length === 0) {
    return { ok: false, reason: 'missing_headers' };
  }
  const timestamp = Number(ts);
  if (Math.abs(replay.nowSeconds - timestamp) > replay.toleranceSeconds) {
    return { ok: false, reason: 'timestamp_out_of_range' };
  }
  const expected = createHmac('sha256', key)
    .update(`${id}.${ts}.`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
  // Every candidate is compared (no early exit on the version), each in constant time.
  let matched = false;
  for (const candidate of signatures) {
    // A Headers object joins repeated lines with ", ": the comma is not part of a signature.
    const s = candidate.endsWith(',') ? candidate.slice(0, -1) : candidate;
    const comma = s.indexOf(',');
    if (comma < 0 || s.slice(0, comma) !== 'v1') continue;
    const got = Buffer.from(s.slice(comma + 1), 'base64');
    if (got.length === expected.length && timingSafeEqual(got, expected)) matched = true;
  }
  return matched ? { ok: true, id, timestamp } : { ok: false, reason: 'no_matching_signature' };
}

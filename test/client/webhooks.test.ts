import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../clients/typescript/src/index.ts';
import type { EndpointSecrets } from '../../src/core/webhooks/model.ts';
import { newSecret } from '../../src/core/webhooks/secrets.ts';
import { deliveryHeaders } from '../../src/core/webhooks/signing.ts';

/** The client's verifier against headers made by the server's own signing code (signing.ts). */
describe('typed client: webhook signatures', () => {
  const now = Date.UTC(2026, 10, 24, 9, 0, 0);
  const secret = newSecret();
  const body = JSON.stringify({
    id: 'evt_5b0c8f3e9a1d4c7b8e2f6a0d3c9b1e47',
    type: 'score.changed',
    created: Math.floor(now / 1000),
    data: { vendor_slug: 'apex', previous_score: 61, new_score: 48, delta: -13, note: 'ünïcode' },
  });
  const signed = (
    secrets: EndpointSecrets = { current: secret, previous: null, previousUntil: null },
    at = now,
  ) => deliveryHeaders(secrets, 'evt_5b0c8f3e9a1d4c7b8e2f6a0d3c9b1e47', body, at);

  it('accepts what the server signed, as a string, as raw bytes and with a Headers object', () => {
    const h = signed();
    expect(verifyWebhook(secret, h, body, { now })).toEqual({
      ok: true,
      id: 'evt_5b0c8f3e9a1d4c7b8e2f6a0d3c9b1e47',
      timestamp: Math.floor(now / 1000),
    });
    expect(verifyWebhook(secret, h, Buffer.from(body), { now }).ok).toBe(true);
    expect(verifyWebhook(secret, new Headers(h), body, { now }).ok).toBe(true);
  });

  it('rejects a tampered body, a changed id and a wrong secret', () => {
    const h = signed();
    expect(verifyWebhook(secret, h, body.replace('-13', '-14'), { now })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
    expect(verifyWebhook(secret, { ...h, 'webhook-id': 'evt_other' }, body, { now }).ok).toBe(false);
    expect(verifyWebhook(newSecret(), h, body, { now })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
    // A signature of another scheme version is not compared as v1.
    const v2 = { ...h, 'webhook-signature': h['webhook-signature']!.replace('v1,', 'v2,') };
    expect(verifyWebhook(secret, v2, body, { now }).ok).toBe(false);
  });

  it('rejects a timestamp more than 5 minutes from now, either way', () => {
    const h = signed();
    expect(verifyWebhook(secret, h, body, { now: now + 300_000 }).ok).toBe(true);
    expect(verifyWebhook(secret, h, body, { now: now + 301_000 })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_range',
    });
    expect(verifyWebhook(secret, h, body, { now: now - 301_000 }).ok).toBe(false);
    expect(verifyWebhook(secret, h, body, { now: now + 301_000, toleranceSeconds: 600 }).ok).toBe(true);
  });

  it('accepts either secret during a rotation (two space-separated signatures)', () => {
    const next = newSecret();
    const h = signed({
      current: next,
      previous: secret,
      previousUntil: new Date(now + 3_600_000).toISOString(),
    });
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(secret, h, body, { now }).ok).toBe(true);
    expect(verifyWebhook(next, h, body, { now }).ok).toBe(true);
    expect(verifyWebhook(newSecret(), h, body, { now }).ok).toBe(false);
  });

  it('rejects missing or malformed headers', () => {
    const h = signed();
    expect(verifyWebhook(secret, { ...h, 'webhook-signature': undefined }, body, { now })).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
    expect(verifyWebhook(secret, { ...h, 'webhook-timestamp': '1e9' }, body, { now })).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
  });
});

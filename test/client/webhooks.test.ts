import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type VerifyOptions, verifyWebhook } from '../../clients/typescript/src/index.ts';
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

  it('throws, naming the option, when toleranceSeconds or now is not a finite number (a NaN would let any old signature through)', () => {
    // Signed a day ago: a replay, which only the time window refuses.
    const old = signed(undefined, now - 86_400_000);
    expect(verifyWebhook(secret, old, body, { now }).ok).toBe(false);
    const bad: [string, VerifyOptions, RegExp][] = [
      ['NaN tolerance', { now, toleranceSeconds: Number.NaN }, /opts\.toleranceSeconds.*NaN/],
      ['infinite tolerance', { now, toleranceSeconds: Number.POSITIVE_INFINITY }, /opts\.toleranceSeconds/],
      ['negative tolerance', { now, toleranceSeconds: -1 }, /opts\.toleranceSeconds/],
      ['a string tolerance', { now, toleranceSeconds: '300' as unknown as number }, /opts\.toleranceSeconds/],
      ['NaN now', { now: Number.NaN }, /opts\.now.*NaN/],
      ['infinite now', { now: Number.NEGATIVE_INFINITY }, /opts\.now/],
      ['null now', { now: null as unknown as number }, /opts\.now/],
    ];
    for (const [why, opts, message] of bad) {
      expect(() => verifyWebhook(secret, old, body, opts), why).toThrow(message);
      // Whatever the request: a fresh, valid one throws too (a configuration error).
      expect(() => verifyWebhook(secret, signed(), body, opts), why).toThrow(message);
    }
    // 0 is a valid tolerance: only the exact second is accepted.
    expect(verifyWebhook(secret, signed(), body, { now, toleranceSeconds: 0 }).ok).toBe(true);
    expect(verifyWebhook(secret, signed(), body, { now: now + 1000, toleranceSeconds: 0 }).ok).toBe(false);
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
  it('refuses a secret that is missing or not whsec_ + padded base64 of at least 16 bytes, so an empty key forges nothing', () => {
    const h = signed();
    // What anyone can compute without the secret: the HMAC keyed with zero bytes.
    const forged = {
      ...h,
      'webhook-signature': `v1,${createHmac('sha256', Buffer.alloc(0))
        .update(`${h['webhook-id']}.${h['webhook-timestamp']}.${body}`)
        .digest('base64')}`,
    };
    const b64 = (n: number) => randomBytes(n).toString('base64');
    const bad: [string, unknown][] = [
      ['undefined', undefined],
      ['null', null],
      ['empty', ''],
      ['the prefix alone', 'whsec_'],
      ['not base64', 'whsec_!!!!'],
      ['padding alone', 'whsec_===='],
      ['no prefix', secret.slice('whsec_'.length)],
      ['another prefix', `whsek_${secret.slice('whsec_'.length)}`],
      ['unpadded', `whsec_${b64(32).replace(/=+$/, '')}`],
      ['a space inside', `whsec_${b64(30).slice(0, 20)} ${b64(30).slice(20)}`],
      ['a line break after', `${secret}\n`],
      ['url-safe alphabet', `whsec_${'-_'.repeat(22)}`],
      ['bits after the last byte', `whsec_${b64(32).replace(/.=$/, 'B=')}`],
      ['15 bytes', `whsec_${b64(15)}`],
    ];
    for (const [why, s] of bad) {
      expect(() => verifyWebhook(s as string, forged, body, { now }), why).toThrow(
        /verifyWebhook: the webhook secret/,
      );
      expect(() => verifyWebhook(s as string, h, body, { now }), why).toThrow(Error);
    }
    // The message names the problem, never the secret.
    const short = `whsec_${b64(15)}`;
    expect(() => verifyWebhook(short, h, body, { now })).toThrow(/decodes to 15 bytes; at least 16/);
    try {
      verifyWebhook(`${secret}!`, h, body, { now });
    } catch (e) {
      expect((e as Error).message).not.toContain(secret.slice('whsec_'.length, 20));
    }
    // 16 bytes is enough; the server's own 32-byte secrets verify, and an empty-key forgery does not.
    const sixteen = `whsec_${b64(16)}`;
    expect(
      verifyWebhook(sixteen, signed({ current: sixteen, previous: null, previousUntil: null }), body, { now })
        .ok,
    ).toBe(true);
    expect(verifyWebhook(secret, forged, body, { now })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('finds the headers whatever their case in a plain object', () => {
    const h = signed();
    const capitalised = {
      'Webhook-Id': h['webhook-id'],
      'WEBHOOK-TIMESTAMP': h['webhook-timestamp'],
      'Webhook-Signature': h['webhook-signature'],
    };
    expect(verifyWebhook(secret, capitalised, body, { now })).toEqual({
      ok: true,
      id: 'evt_5b0c8f3e9a1d4c7b8e2f6a0d3c9b1e47',
      timestamp: Math.floor(now / 1000),
    });
  });

  it('considers every value of a repeated webhook-signature (arrays, and Headers joined with ", ")', () => {
    const h = signed();
    const good = h['webhook-signature']!;
    const bogus = 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    expect(verifyWebhook(secret, { ...h, 'webhook-signature': ['v1,bad', good] }, body, { now }).ok).toBe(
      true,
    );
    expect(
      verifyWebhook(secret, { ...h, 'webhook-signature': [bogus, `v2,x ${good}`] }, body, { now }).ok,
    ).toBe(true);
    // The same header under two spellings of its name: both are read.
    const { 'webhook-signature': _, ...rest } = h;
    expect(
      verifyWebhook(secret, { ...rest, 'webhook-signature': bogus, 'Webhook-Signature': good }, body, { now })
        .ok,
    ).toBe(true);
    expect(verifyWebhook(secret, { ...h, 'webhook-signature': ['v1,bad', bogus] }, body, { now })).toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
    const joined = new Headers(h);
    joined.delete('webhook-signature');
    joined.append('webhook-signature', bogus);
    joined.append('webhook-signature', good);
    expect(joined.get('webhook-signature')).toBe(`${bogus}, ${good}`);
    expect(verifyWebhook(secret, joined, body, { now }).ok).toBe(true);
    expect(verifyWebhook(secret, { ...h, 'webhook-signature': [] }, body, { now })).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
  });

  it('refuses a webhook-id or webhook-timestamp given twice with different values', () => {
    const h = signed();
    const id = h['webhook-id']!;
    const ts = h['webhook-timestamp']!;
    const ambiguous = { ok: false, reason: 'ambiguous_headers' };
    expect(verifyWebhook(secret, { ...h, 'webhook-id': [id, 'evt_other'] }, body, { now })).toEqual(
      ambiguous,
    );
    expect(verifyWebhook(secret, { ...h, 'webhook-id': ['evt_other', id] }, body, { now })).toEqual(
      ambiguous,
    );
    expect(
      verifyWebhook(secret, { ...h, 'webhook-timestamp': [ts, String(Number(ts) + 1)] }, body, { now }),
    ).toEqual(ambiguous);
    expect(verifyWebhook(secret, { ...h, 'Webhook-Id': 'evt_other' }, body, { now })).toEqual(ambiguous);
    // The same value twice is not ambiguous.
    expect(
      verifyWebhook(secret, { ...h, 'webhook-id': [id, id], 'Webhook-Timestamp': ts }, body, { now }).ok,
    ).toBe(true);
  });
});

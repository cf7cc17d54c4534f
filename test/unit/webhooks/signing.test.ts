import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { EndpointSecrets } from '../../../src/core/webhooks/model.ts';
import { newSecret, secretKey } from '../../../src/core/webhooks/secrets.ts';
import { deliveryHeaders, sign, signingSecrets } from '../../../src/core/webhooks/signing.ts';

/**
 * Standard Webhooks signing, checked by the independent `standardwebhooks` package (what a
 * customer's receiver runs), including a rotation's overlap.
 */

const one = (current: string): EndpointSecrets => ({ current, previous: null, previousUntil: null });
const iso = (ms: number) => new Date(ms).toISOString();
const BODY = JSON.stringify({ id: 'evt_1', type: 'score.changed', created: 1_700_000_000, data: { a: 1 } });

/** Verifies with the package; returns the parsed body or the package's error message. */
function verify(secret: string, body: string, headers: Record<string, string>): unknown {
  try {
    return new Webhook(secret).verify(body, headers);
  } catch (e) {
    return e instanceof Error ? `refused: ${e.message}` : 'refused';
  }
}

describe('secrets', () => {
  it('are whsec_ + base64 of 32 random bytes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const s = newSecret();
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(s.slice('whsec_'.length), 'base64')).toHaveLength(32);
      expect(secretKey(s)).toHaveLength(32);
      seen.add(s);
    }
    expect(seen.size).toBe(200);
  });

  it('sign with the decoded bytes, not the text (as the package does)', () => {
    const s = newSecret();
    const key = secretKey(s);
    expect(key.equals(Buffer.from(s.slice(6), 'base64'))).toBe(true);
    const ts = Math.floor(Date.now() / 1000);
    expect(sign(s, 'evt_1', ts, BODY)).toBe(new Webhook(s).sign('evt_1', new Date(ts * 1000), BODY));
    expect(sign(s, 'evt_1', ts, BODY)).toBe(
      new Webhook(new Uint8Array(key), { format: 'raw' }).sign('evt_1', new Date(ts * 1000), BODY),
    );
  });
});

describe('sign and deliveryHeaders, verified by standardwebhooks', () => {
  it('produces the headers of one attempt', () => {
    const s = newSecret();
    const now = Date.now();
    const h = deliveryHeaders(one(s), 'evt_1', BODY, now);
    expect(h).toEqual({
      'content-type': 'application/json',
      'user-agent': 'PureRank-Webhooks/1',
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(now / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(verify(s, BODY, h)).toEqual(JSON.parse(BODY));
  });

  it('verifies any JSON body and event id', () => {
    const s = newSecret();
    fc.assert(
      fc.property(fc.jsonValue(), fc.stringMatching(/^evt_[0-9a-z]{1,30}$/), (value, id) => {
        const body = JSON.stringify({ id, data: value });
        const h = deliveryHeaders(one(s), id, body, Date.now());
        expect(verify(s, body, h)).toEqual(JSON.parse(body));
      }),
      { numRuns: 200 },
    );
  });

  it('fails a tampered body, timestamp or id, and another secret', () => {
    const s = newSecret();
    const h = deliveryHeaders(one(s), 'evt_1', BODY, Date.now());
    expect(verify(s, BODY.replace('"a":1', '"a":2'), h)).toBe('refused: No matching signature found');
    expect(verify(s, `${BODY} `, h)).toBe('refused: No matching signature found');
    const ts = Number(h['webhook-timestamp']);
    expect(verify(s, BODY, { ...h, 'webhook-timestamp': String(ts - 1) })).toBe(
      'refused: No matching signature found',
    );
    expect(verify(s, BODY, { ...h, 'webhook-id': 'evt_2' })).toBe('refused: No matching signature found');
    expect(verify(newSecret(), BODY, h)).toBe('refused: No matching signature found');
  });

  it('is refused by the package outside its 5-minute tolerance (a replay of an old delivery)', () => {
    const s = newSecret();
    const old = deliveryHeaders(one(s), 'evt_1', BODY, Date.now() - 6 * 60_000);
    expect(verify(s, BODY, old)).toBe('refused: Message timestamp too old');
  });

  it('signs the UTF-8 bytes of the body (non-ASCII text verifies)', () => {
    const s = newSecret();
    const body = JSON.stringify({ id: 'evt_ü', data: { name: 'Pépтиды 肽 🧪' } });
    const h = deliveryHeaders(one(s), 'evt_ü', body, Date.now());
    expect(verify(s, body, h)).toEqual(JSON.parse(body));
    expect(verify(s, Buffer.from(body, 'utf8').toString('latin1'), h)).toMatch(/^refused/);
  });
});

describe('rotation overlap', () => {
  const now = Date.now();
  const oldSecret = newSecret();
  const newer = newSecret();
  const rotating = (untilMs: number): EndpointSecrets => ({
    current: newer,
    previous: oldSecret,
    previousUntil: iso(untilMs),
  });

  it('signs with both secrets during the overlap, space-separated, each verifying', () => {
    const h = deliveryHeaders(rotating(now + 3_600_000), 'evt_1', BODY, now);
    const sigs = h['webhook-signature']!.split(' ');
    expect(sigs).toHaveLength(2);
    expect(sigs[0]).toBe(sign(newer, 'evt_1', Math.floor(now / 1000), BODY));
    expect(sigs[1]).toBe(sign(oldSecret, 'evt_1', Math.floor(now / 1000), BODY));
    // A receiver holding either secret accepts the delivery as sent …
    expect(verify(newer, BODY, h)).toEqual(JSON.parse(BODY));
    expect(verify(oldSecret, BODY, h)).toEqual(JSON.parse(BODY));
    // … and each signature alone is the one for its own secret.
    expect(verify(newer, BODY, { ...h, 'webhook-signature': sigs[0]! })).toEqual(JSON.parse(BODY));
    expect(verify(oldSecret, BODY, { ...h, 'webhook-signature': sigs[1]! })).toEqual(JSON.parse(BODY));
    expect(verify(oldSecret, BODY, { ...h, 'webhook-signature': sigs[0]! })).toMatch(/^refused/);
    expect(verify(newSecret(), BODY, h)).toMatch(/^refused/);
  });

  it('signs with the new secret alone from the end of the overlap on', () => {
    for (const until of [now, now - 1, now - 86_400_000]) {
      expect(signingSecrets(rotating(until), now)).toEqual([newer]);
      const h = deliveryHeaders(rotating(until), 'evt_1', BODY, now);
      expect(h['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(verify(newer, BODY, h)).toEqual(JSON.parse(BODY));
      expect(verify(oldSecret, BODY, h)).toBe('refused: No matching signature found');
    }
    expect(signingSecrets(rotating(now + 1), now)).toEqual([newer, oldSecret]);
  });

  it('signs with the current secret alone when nothing is rotating, or the record is half-filled', () => {
    expect(signingSecrets(one(newer), now)).toEqual([newer]);
    expect(signingSecrets({ current: newer, previous: oldSecret, previousUntil: null }, now)).toEqual([
      newer,
    ]);
    expect(signingSecrets({ current: newer, previous: null, previousUntil: iso(now + 1000) }, now)).toEqual([
      newer,
    ]);
  });
});

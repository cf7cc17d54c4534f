import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { revokeKey } from '../../../src/core/keys/manage-keys.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  ENDPOINTS,
  expectError,
  expectOk,
  type Fixture,
  hourEndS,
  setupFixture,
  T0,
  UNKNOWN_KEY,
} from './fixtures.ts';

/** Checks every Variant A endpoint must pass, run over the table of endpoints. */
describe.each(DIALECTS)('Variant A shared checks (%s)', (dialect) => {
  let f: Fixture;
  const keys: Record<'free' | 'pro' | 'enterprise' | 'custom' | 'revoked', string> = {
    free: '',
    pro: '',
    enterprise: '',
    custom: '',
    revoked: '',
  };
  beforeAll(async () => {
    f = await setupFixture(dialect);
    for (const plan of ['free', 'pro', 'enterprise', 'custom'] as const)
      keys[plan] = await f.ctx.keyFor(plan);
    keys.revoked = await f.ctx.keyFor('enterprise');
    // The revoked key worked once, so its rejection is the revocation, not a typo.
    expect((await f.get(ENDPOINTS[0].url, {}, keys.revoked)).statusCode).toBe(200);
    await revokeKey(f.ctx.container.store, keys.revoked);
  });
  afterAll(async () => f?.ctx.close());

  const send = (url: string, headers: Record<string, string> = {}) =>
    f.ctx.app.inject({ method: 'GET', url, headers });
  const auth = (plan: keyof typeof keys) => ({ authorization: `Bearer ${keys[plan]}` });

  describe.each(ENDPOINTS)('$name', ({ url }) => {
    const expect401 = async (headers: Record<string, string>) => {
      const res = await send(url, headers);
      const err = expectError(res, 401, 'invalid_api_key');
      expect(err.message).toMatch(/not valid/i);
      expect(res.json()).toEqual({
        error: { code: 'invalid_api_key', message: err.message, status: 401, request_id: err.request_id },
      });
    };

    it('no Authorization header → 401 invalid_api_key', async () => {
      await expect401({});
    });

    it.each([
      ['an empty header', ''],
      ['the scheme alone', 'Bearer'],
      ['the scheme and a space', 'Bearer '],
      ['a short key', 'Bearer prk_live_abc'],
      ['a test-key prefix', `Bearer prk_test_${'a'.repeat(32)}`],
      ['33 body characters', `Bearer prk_live_${'a'.repeat(33)}`],
      ['a non-base62 character', `Bearer prk_live_${'a'.repeat(31)}-`],
      ['no scheme', `prk_live_${'a'.repeat(32)}`],
      ['two keys', `Bearer prk_live_${'a'.repeat(32)} prk_live_${'b'.repeat(32)}`],
    ])('malformed key (%s) → 401', async (_what, header) => {
      await expect401({ authorization: header });
    });

    it('an unknown well-formed key → 401', async () => {
      await expect401({ authorization: `Bearer ${UNKNOWN_KEY}` });
    });

    it('a valid key under the Basic scheme → 401', async () => {
      await expect401({ authorization: `Basic ${keys.enterprise}` });
    });

    it('a revoked key → 401 invalid_api_key', async () => {
      await expect401({ authorization: `Bearer ${keys.revoked}` });
    });

    it('free plan → 403 plan_required, with the rate-limit headers', async () => {
      const res = await send(url, auth('free'));
      const err = expectError(res, 403, 'plan_required');
      expect(err.message).toBe('API access requires a Pro or Enterprise plan.');
      expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-reset']).toBe(String(hourEndS(f.ctx.clock.now())));
    });

    it.each([
      ['pro', '1000'],
      ['enterprise', '10000'],
      ['custom', '100000'],
    ] as const)('%s plan → 200 with the hourly limit %s', async (plan, limit) => {
      const res = await send(url, auth(plan));
      expectOk(res);
      expect(res.headers['x-ratelimit-limit']).toBe(limit);
      expect(res.headers['x-ratelimit-reset']).toBe(String((T0 + HOUR_MS) / 1000));
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
    });

    it('rate-limit headers count down within the hour', async () => {
      const key = await f.ctx.keyFor('enterprise');
      const first = await send(url, { authorization: `Bearer ${key}` });
      const second = await send(url, { authorization: `Bearer ${key}` });
      expect(first.headers['x-ratelimit-remaining']).toBe('9999');
      expect(second.headers['x-ratelimit-remaining']).toBe('9998');
      expect(second.headers['x-ratelimit-reset']).toBe(String((T0 + HOUR_MS) / 1000));
    });

    it('every response carries a distinct x-request-id', async () => {
      const a = await send(url, auth('enterprise'));
      const b = await send(url, {});
      const c = await send(url, auth('enterprise'));
      const ids = [a, b, c].map((r) => r.headers['x-request-id']);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
      expect(new Set(ids).size).toBe(3);
    });

    it('sends an ETag; If-None-Match with it → 304 with an empty body, not counted', async () => {
      const key = await f.ctx.keyFor('enterprise');
      const h = { authorization: `Bearer ${key}` };
      const res = await send(url, h);
      expect(res.headers['x-ratelimit-remaining']).toBe('9999');
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const cond = await send(url, { ...h, 'if-none-match': inm });
        expect(cond.statusCode, inm).toBe(304);
        expect(cond.body).toBe('');
        expect(cond.headers.etag).toBe(etag);
        expect(cond.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
        expect(cond.headers['x-ratelimit-remaining']).toBe('9999');
        expect(cond.headers['x-ratelimit-limit']).toBe('10000');
      }
      const other = await send(url, { ...h, 'if-none-match': '"something-else"' });
      expect(other.statusCode).toBe(200);
      expect(other.body).toBe(res.body);
      expect(other.headers['x-ratelimit-remaining']).toBe('9998');
    });

    it('the ETag is the same for every key', async () => {
      const a = await send(url, auth('enterprise'));
      const b = await send(url, auth('pro'));
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(
        (await send(url, { ...auth('pro'), 'if-none-match': a.headers.etag as string })).statusCode,
      ).toBe(304);
    });

    it('If-None-Match does not bypass authentication or the plan', async () => {
      const etag = (await send(url, auth('enterprise'))).headers.etag as string;
      expectError(await send(url, { 'if-none-match': etag }), 401, 'invalid_api_key');
      expectError(await send(url, { ...auth('free'), 'if-none-match': etag }), 403, 'plan_required');
    });
  });

  it('an import changes the bodies, so an old ETag no longer matches', async () => {
    const before = new Map<string, string>();
    for (const { url } of ENDPOINTS)
      before.set(url, (await send(url, auth('enterprise'))).headers.etag as string);
    f.ctx.clock.advance(HOUR_MS);
    // "Apex Labs" → "Apex Labs BPC": every endpoint shows apex (search "bpc" finds it by name now).
    const r = await f.ctx.load([{ type: 'vendor', slug: 'apex', name: 'Apex Labs BPC', location: 'USA' }]);
    expect(r.ok).toBe(true);
    for (const { url } of ENDPOINTS) {
      const res = await send(url, { ...auth('enterprise'), 'if-none-match': before.get(url)! });
      if (url.endsWith('/peptides') || url.endsWith('/bpc-157/vendors')) {
        // These bodies name no vendor: the same bytes keep the same ETag (it describes the body).
        expect(res.statusCode, url).toBe(304);
      } else {
        expect(res.statusCode, url).toBe(200);
        expect(res.headers.etag).not.toBe(before.get(url));
      }
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { revokeKey } from '../../../src/core/keys/manage-keys.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  ENDPOINTS,
  expectEnvelope,
  expectError,
  type Fixture,
  setupFixture,
  T0,
  UNKNOWN_KEY,
} from './fixtures.ts';

/** Checks every Variant B endpoint must pass, run over the table of endpoints. */
describe.each(DIALECTS)('shared checks (%s)', (dialect) => {
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
    await revokeKey(f.ctx.container.store, keys.revoked);
  });
  afterAll(async () => f?.ctx.close());

  const send = (url: string, headers: Record<string, string> = {}) =>
    f.ctx.app.inject({ method: 'GET', url, headers });

  describe.each(ENDPOINTS)('$name', ({ url }) => {
    const expect401 = async (headers: Record<string, string>) => {
      const err = expectError(await send(url, headers), 401, 'invalid_api_key');
      expect(err.message).toMatch(/not valid/i);
    };

    it('no Authorization header → 401 invalid_api_key', async () => {
      await expect401({});
    });

    it.each([
      ['an empty header', ''],
      ['the scheme alone', 'Bearer'],
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
      await expect401({ authorization: `Basic ${Buffer.from(`${keys.enterprise}:`).toString('base64')}` });
    });

    it('a revoked key → 401 invalid_api_key, message says the key is not valid', async () => {
      await expect401({ authorization: `Bearer ${keys.revoked}` });
    });

    it('free plan → 403 plan_required', async () => {
      const err = expectError(
        await send(url, { authorization: `Bearer ${keys.free}` }),
        403,
        'plan_required',
      );
      expect(err.message).toBe('API access requires a Pro or Enterprise plan.');
    });

    it.each([
      ['pro', '1000'],
      ['enterprise', '1000'],
      ['custom', '100000'],
    ] as const)('%s plan → 200 with the envelope and rate-limit headers (limit %s)', async (plan, limit) => {
      const res = await send(url, { authorization: `Bearer ${keys[plan]}` });
      expectEnvelope(res);
      expect(res.headers['x-ratelimit-limit']).toBe(limit);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
    });

    it('rate-limit headers count down and reset 24 h after the first request', async () => {
      const key = await f.ctx.keyFor('enterprise');
      const first = await send(url, { authorization: `Bearer ${key}` });
      const second = await send(url, { authorization: `Bearer ${key}` });
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('999');
      expect(second.headers['x-ratelimit-remaining']).toBe('998');
      expect(second.headers['x-ratelimit-reset']).toBe(String((T0 + DAY_MS) / 1000));
    });

    it('every response carries a distinct x-request-id', async () => {
      const a = await send(url, { authorization: `Bearer ${keys.enterprise}` });
      const b = await send(url, {});
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
      expect(b.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('sends an ETag; If-None-Match with it → 304 with an empty body', async () => {
      const auth = { authorization: `Bearer ${keys.enterprise}` };
      const res = await send(url, auth);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const cond = await send(url, { ...auth, 'if-none-match': inm });
        expect(cond.statusCode, inm).toBe(304);
        expect(cond.body).toBe('');
        expect(cond.headers.etag).toBe(etag);
        expect(cond.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]{6,}$/);
      }
      const other = await send(url, { ...auth, 'if-none-match': '"something-else"' });
      expect(other.statusCode).toBe(200);
      expect(other.body).toBe(res.body);
    });

    it('If-None-Match does not bypass authentication', async () => {
      const etag = (await send(url, { authorization: `Bearer ${keys.enterprise}` })).headers.etag as string;
      expectError(await send(url, { 'if-none-match': etag }), 401, 'invalid_api_key');
      expectError(
        await send(url, { authorization: `Bearer ${keys.free}`, 'if-none-match': etag }),
        403,
        'plan_required',
      );
    });
  });
});

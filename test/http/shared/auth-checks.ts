import { expect, it } from 'vitest';
import { expectError, UNKNOWN_KEY } from '../variant-b/fixtures.ts';
import type { SuiteState } from './suite-state.ts';
import type { EndpointUnderTest } from './variant.ts';

/** Every way of not presenting a valid key, answered 401 `invalid_api_key` with the documented body. */
export function authChecks(s: SuiteState, { url }: EndpointUnderTest): void {
  const expect401 = async (headers: Record<string, string>) => {
    // Over a socket, asked again once the server has seen the header: still refused.
    for (let i = 0; i < s.repeats; i++) {
      const res = await s.send(url, headers);
      const err = expectError(res, 401, 'invalid_api_key');
      expect(err.message).toMatch(/not valid/i);
      expect(res.json()).toEqual({
        error: { code: 'invalid_api_key', message: err.message, status: 401, request_id: err.request_id },
      });
      // An unknown caller learns nothing about any quota.
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
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
    await expect401({ authorization: `Basic ${s.keys.enterprise}` });
    await expect401({ authorization: `Basic ${Buffer.from(`${s.keys.enterprise}:`).toString('base64')}` });
  });

  it('a revoked key → 401 invalid_api_key, message says the key is not valid', async () => {
    await expect401(s.auth('revoked'));
  });
}

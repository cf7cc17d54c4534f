import { expect, it } from 'vitest';
import { expectError } from '../variant-b/fixtures.ts';
import { REQUEST_ID, type SuiteState } from './suite-state.ts';
import type { EndpointUnderTest } from './variant.ts';

/** ETag and If-None-Match: 304s are empty and not counted, and never get past the key or the plan. */
export function etagChecks(s: SuiteState, { url }: EndpointUnderTest): void {
  it('sends an ETag; If-None-Match with it → 304 with an empty body, not counted', async () => {
    const key = await s.ctx.keyFor('enterprise');
    const h = { authorization: `Bearer ${key}` };
    const limit = s.variant.limits.enterprise;
    const res = await s.send(url, h);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(limit - 1));
    const etag = res.headers.etag!;
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const cond = await s.send(url, { ...h, 'if-none-match': inm });
      expect(cond.statusCode, inm).toBe(304);
      expect(cond.body).toBe('');
      expect(cond.headers.etag).toBe(etag);
      expect(cond.headers['x-request-id']).toMatch(REQUEST_ID);
      expect(cond.headers['x-ratelimit-remaining']).toBe(String(limit - 1));
      expect(cond.headers['x-ratelimit-limit']).toBe(String(limit));
    }
    const other = await s.send(url, { ...h, 'if-none-match': '"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(res.body);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(limit - 2));
    if (s.kind === 'socket') {
      // The fast path leaves conditional requests to the framework, and sends the same body and tag.
      for (const [i, plain] of (await s.untilFast(url, h)).entries()) {
        expect(plain.body).toBe(res.body);
        expect(plain.headers.etag).toBe(etag);
        expect(plain.headers['x-ratelimit-remaining']).toBe(String(limit - 3 - i));
      }
    }
  });

  it('the ETag is the same for every key', async () => {
    const [a] = await s.answers(url, s.auth('enterprise'));
    const answers = await s.answers(url, s.auth('pro'));
    for (const b of answers) expect(b.headers.etag).toBe(a!.headers.etag);
    const cond = await s.send(url, { ...s.auth('pro'), 'if-none-match': a!.headers.etag! });
    expect(cond.statusCode).toBe(304);
  });

  it('If-None-Match does not bypass authentication or the plan', async () => {
    const etag = (await s.send(url, s.auth('enterprise'))).headers.etag!;
    expectError(await s.send(url, { 'if-none-match': etag }), 401, 'invalid_api_key');
    expectError(await s.send(url, { ...s.auth('free'), 'if-none-match': etag }), 403, 'plan_required');
  });
}

import { expect, it } from 'vitest';
import { expectError } from '../variant-b/fixtures.ts';
import { REQUEST_ID, type SuiteState } from './suite-state.ts';
import type { Answer } from './transport.ts';
import type { EndpointUnderTest } from './variant.ts';

const rateHeaders = (r: Answer) => ({
  limit: r.headers['x-ratelimit-limit'],
  remaining: r.headers['x-ratelimit-remaining'],
  reset: r.headers['x-ratelimit-reset'],
});

/** Rate-limit headers, the 429, and request ids: the same on both request paths. */
export function rateChecks(s: SuiteState, { url }: EndpointUnderTest): void {
  it('rate-limit headers count down, with the same reset (over a socket: the framework, then the fast path)', async () => {
    const key = await s.ctx.keyFor('enterprise');
    const h = { authorization: `Bearer ${key}` };
    const now = s.ctx.clock.now();
    const limit = s.variant.limits.enterprise;
    const reset = String(s.variant.resetS(now, now));
    const first = await s.send(url, h);
    // A new key is looked up by the framework; its next requests are the fast path's.
    const rest = s.kind === 'socket' ? await s.untilFast(url, h) : [await s.send(url, h)];
    if (s.kind === 'socket') expect(first.fast).toBe(false);
    for (const [i, res] of [first, ...rest].entries()) {
      expect(res.statusCode, res.body).toBe(200);
      expect(rateHeaders(res)).toEqual({ limit: String(limit), remaining: String(limit - 1 - i), reset });
    }
  });

  it('over the limit → 429 rate_limited with Retry-After, not counted (custom limit 5)', async () => {
    const limit = 5;
    const key = await s.variant.keyWithLimit(s.ctx, limit);
    const h = { authorization: `Bearer ${key}` };
    const now = s.ctx.clock.now();
    const reset = String(s.variant.resetS(now, now));
    const admitted: Answer[] = [];
    for (let i = 0; i < limit; i++) admitted.push(await s.send(url, h));
    expect(admitted.map((r) => r.statusCode)).toEqual(Array(limit).fill(200));
    expect(admitted.map(rateHeaders)).toEqual(
      admitted.map((_, i) => ({ limit: String(limit), remaining: String(limit - 1 - i), reset })),
    );
    if (s.kind === 'socket') {
      // The quota the fast path counts is the framework's: the request over it is refused all the same.
      expect(
        admitted.slice(1).some((r) => r.fast),
        'the fast path answered some',
      ).toBe(true);
      s.fastExpected++;
    }
    for (let i = 0; i < 2; i++) {
      const res = await s.send(url, h);
      const err = expectError(res, 429, 'rate_limited');
      expect(err.message).toMatch(s.variant.limitMessage(limit));
      expect(res.headers['retry-after']).toBe(String(s.variant.retryAfterS(now, now)));
      expect(rateHeaders(res)).toEqual({ limit: String(limit), remaining: '0', reset });
    }
  });

  it('every response carries a distinct x-request-id', async () => {
    const a = await s.send(url, s.auth('enterprise'));
    const b = await s.send(url, {});
    const c = await s.send(url, s.auth('enterprise'));
    const ids = [a, b, c].map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(3);
  });
}

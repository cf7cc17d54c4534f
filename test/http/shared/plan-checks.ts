import { expect, it } from 'vitest';
import { expectError } from '../variant-b/fixtures.ts';
import { REQUEST_ID, type SuiteState } from './suite-state.ts';
import type { EndpointUnderTest } from './variant.ts';

/** Plan gates: free is refused with its quota shown; every paying plan is served with its limit. */
export function planChecks(s: SuiteState, { url }: EndpointUnderTest): void {
  it('free plan → 403 plan_required, with the rate-limit headers, every time', async () => {
    const now = s.ctx.clock.now();
    // Over a socket, asked again once the key is known to the server: refused by both paths.
    for (let i = 0; i < s.repeats; i++) {
      const res = await s.send(url, s.auth('free'));
      const err = expectError(res, 403, 'plan_required');
      expect(err.message).toBe('API access requires a Pro or Enterprise plan.');
      expect(res.headers['x-ratelimit-limit']).toBe(String(s.variant.limits.free));
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['x-ratelimit-reset']).toBe(String(s.variant.resetS(now, now)));
    }
  });

  it.each(['pro', 'enterprise', 'custom'] as const)(
    '%s plan → 200 in the success shape, with its limit and reset',
    async (plan) => {
      const limit = String(s.variant.limits[plan]);
      const reset = String(s.variant.resetS(s.openedAtMs, s.ctx.clock.now()));
      for (const res of await s.answers(url, s.auth(plan))) {
        s.variant.expectSuccess(res);
        expect(res.headers['x-ratelimit-limit']).toBe(limit);
        expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
        expect(res.headers['x-ratelimit-reset']).toBe(reset);
        expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
      }
    },
  );
}

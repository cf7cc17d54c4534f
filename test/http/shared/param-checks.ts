import { expect, it } from 'vitest';
import { expectError } from '../variant-b/fixtures.ts';
import type { SuiteState } from './suite-state.ts';
import type { EndpointUnderTest } from './variant.ts';

/**
 * Parameter boundaries. The accepted values run first, so over a socket the cache already holds
 * the answers of their plainly written neighbours (`limit=5` before `limit=%205`): a refused
 * spelling the fast path read loosely would be served that 200 instead of the 400.
 */
export function paramChecks(s: SuiteState, endpoint: EndpointUnderTest): void {
  const { accepts = [], refuses = [] } = endpoint;
  if (accepts.length > 0)
    it.each(accepts)('?$query → 200', async (c) => {
      const url = s.withQuery(endpoint.url, c.query);
      if (c.notCached) {
        // No cached answer exists for it: the framework answers each time, on both paths.
        for (let i = 0; i < 2; i++) {
          const res = await s.send(url, s.auth('enterprise'));
          c.check(s.variant.expectSuccess(res));
          if (s.kind === 'socket') expect(res.fast).toBe(false);
        }
        return;
      }
      const answers = await s.answers(url, s.auth('enterprise'));
      for (const res of answers) c.check(s.variant.expectSuccess(res));
      if (answers.length === 2) expect(answers[1]!.body).toBe(answers[0]!.body);
    });

  if (refuses.length > 0)
    it.each(refuses)('?$query → 400 invalid_parameter naming $param', async (c) => {
      for (let i = 0; i < s.repeats; i++) {
        const res = await s.send(s.withQuery(endpoint.url, c.query), s.auth('enterprise'));
        const err = expectError(res, 400, 'invalid_parameter');
        expect(err.message).toContain(`'${c.param}'`);
        if (c.message !== undefined) expect(err.message).toBe(c.message);
        // Past the key check, so the caller still learns its quota.
        expect(res.headers['x-ratelimit-limit']).toBe(String(s.variant.limits.enterprise));
      }
    });
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboundResponse } from '../../../src/core/webhooks/model.ts';
import {
  judge,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  retryDelay,
} from '../../../src/core/webhooks/retry-policy.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const res = (status: number | null, retryAfter: string | null = null, error: string | null = null) =>
  ({ status, retryAfter, error, latencyMs: 5 }) satisfies OutboundResponse;

describe('judge: what one answer means', () => {
  it.each([200, 201, 202, 204, 250, 299])('%i is a success', (status) => {
    expect(judge(res(status), NOW)).toEqual({ kind: 'success' });
  });

  it.each([
    100, 101, 199, 300, 301, 302, 304, 307, 308, 400, 401, 403, 404, 409, 413, 422, 500, 502, 504, 599,
  ])('%i is a failure that keeps the endpoint', (status) => {
    expect(judge(res(status), NOW)).toEqual({ kind: 'failure', disableEndpoint: false, retryAfterMs: null });
  });

  it('no status (timeout, refused, connection error) is a failure', () => {
    expect(judge(res(null, null, 'timeout: no complete answer within 15000 ms'), NOW)).toEqual({
      kind: 'failure',
      disableEndpoint: false,
      retryAfterMs: null,
    });
  });

  it('410 Gone disables the endpoint at once', () => {
    expect(judge(res(410), NOW)).toEqual({ kind: 'failure', disableEndpoint: true, retryAfterMs: null });
    // Not 404, not 400: only Gone says "stop".
    expect(judge(res(404), NOW)).toMatchObject({ disableEndpoint: false });
  });

  it('reads Retry-After on 429 and 503, in seconds and as an HTTP date', () => {
    expect(judge(res(429, '120'), NOW)).toEqual({
      kind: 'failure',
      disableEndpoint: false,
      retryAfterMs: 120_000,
    });
    expect(judge(res(503, 'Tue, 24 Nov 2026 12:30:00 GMT'), NOW)).toEqual({
      kind: 'failure',
      disableEndpoint: false,
      retryAfterMs: 30 * 60_000,
    });
  });

  it.each([200, 204, 301, 400, 410, 500, 502, 504])('ignores Retry-After on %i', (status) => {
    const v = judge(res(status, '60'), NOW);
    if (v.kind === 'failure') expect(v.retryAfterMs).toBeNull();
  });

  it('a 429 without Retry-After, or with an unreadable one, falls back to the schedule', () => {
    expect(judge(res(429), NOW)).toMatchObject({ retryAfterMs: null });
    expect(judge(res(503, 'soon'), NOW)).toMatchObject({ retryAfterMs: null });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('1', NOW)).toBe(1_000);
    expect(parseRetryAfter(' 30 ', NOW)).toBe(30_000);
    expect(parseRetryAfter('86400', NOW)).toBe(86_400_000);
  });

  it('reads the three HTTP date forms (IMF-fixdate, RFC 850, asctime)', () => {
    expect(parseRetryAfter('Tue, 24 Nov 2026 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('Tuesday, 24-Nov-26 12:02:00 GMT', NOW)).toBe(120_000);
    expect(parseRetryAfter('Tue Nov 24 12:03:00 2026', NOW)).toBe(180_000);
  });

  it('reads an asctime date (no zone named) as GMT whatever the server\u2019s time zone', () => {
    const before = process.env.TZ;
    try {
      for (const tz of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
        process.env.TZ = tz; // Node re-reads the zone when TZ changes
        expect(parseRetryAfter('Tue Nov 24 12:03:00 2026', NOW)).toBe(180_000);
        expect(parseRetryAfter('Tue, 24 Nov 2026 12:01:00 GMT', NOW)).toBe(60_000);
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('clamps to [0, one day]: a past date is now, a far one or a huge number is a day', () => {
    expect(parseRetryAfter('Tue, 24 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('86401', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('99999999999', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBe(MAX_RETRY_AFTER_MS);
  });

  it.each(['', ' ', '-5', '+5', '1.5', '1e3', '0x10', 'soon', '12abc', 'NaN', 'Infinity', '2026-11-24'])(
    'refuses %j (null: the schedule decides)',
    (v) => {
      expect(parseRetryAfter(v, NOW)).toBeNull();
    },
  );

  it('is always null or a whole number of ms within [0, one day], whatever the header', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.nat().map(String),
          fc.date().map((d) => d.toUTCString()),
        ),
        (v) => {
          const ms = parseRetryAfter(v, NOW);
          if (ms !== null) {
            expect(Number.isFinite(ms)).toBe(true);
            expect(ms).toBeGreaterThanOrEqual(0);
            expect(ms).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('retryDelay', () => {
  const SCHEDULE = [
    5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
  ];

  it('follows the schedule step by step, the n-th failure taking the n-th step', () => {
    SCHEDULE.forEach((step, i) => {
      expect(retryDelay(SCHEDULE, i + 1, null, () => 0.5)).toBe(step);
    });
  });

  it('jitters within ±10 % of the step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: SCHEDULE.length }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const step = SCHEDULE[n - 1]!;
          const d = retryDelay(SCHEDULE, n, null, () => r)!;
          expect(d).toBeGreaterThanOrEqual(Math.floor(step * 0.9));
          expect(d).toBeLessThanOrEqual(Math.ceil(step * 1.1));
        },
      ),
      { numRuns: 2_000 },
    );
    expect(retryDelay(SCHEDULE, 1, null, () => 0)).toBe(4_500);
    expect(retryDelay(SCHEDULE, 1, null, () => 0.999_999)).toBe(5_500);
  });

  it('spreads retries (real randomness is used when none is given)', () => {
    const seen = new Set(Array.from({ length: 50 }, () => retryDelay(SCHEDULE, 2, null)));
    expect(seen.size).toBeGreaterThan(10);
  });

  it('is exhausted (null) after the last step, Retry-After or not', () => {
    expect(retryDelay(SCHEDULE, SCHEDULE.length + 1, null)).toBeNull();
    expect(retryDelay(SCHEDULE, SCHEDULE.length + 1, 1_000)).toBeNull();
    expect(retryDelay([], 1, null)).toBeNull();
  });

  it('honours a Retry-After longer than the step; never retries sooner than the step, nor within a second', () => {
    expect(retryDelay(SCHEDULE, 1, 60_000, () => 0)).toBe(60_000);
    // Shorter than the step (30 min ± 10 %): the step stands, so Retry-After: 0 cannot burn the schedule.
    expect(retryDelay(SCHEDULE, 3, 2_000, () => 0.5)).toBe(1_800_000);
    expect(retryDelay(SCHEDULE, 1, 0, () => 0.5)).toBe(5_000);
    expect(retryDelay([10, 20], 1, 0, () => 0.5)).toBe(1_000);
    expect(retryDelay([10, 20], 1, 3_000, () => 0.5)).toBe(3_000);
  });

  it('works with a shortened test schedule', () => {
    expect(retryDelay([10, 20], 1, null, () => 0.5)).toBe(10);
    expect(retryDelay([10, 20], 2, null, () => 0.5)).toBe(20);
    expect(retryDelay([10, 20], 3, null)).toBeNull();
    expect(retryDelay([0], 1, null, () => 0)).toBe(1);
  });
});

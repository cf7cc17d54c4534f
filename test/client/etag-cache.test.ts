import { describe, expect, it } from 'vitest';
import { EtagCache, retryAfterMs } from '../../clients/typescript/src/index.ts';

describe('typed client: ETag cache bound and Retry-After parsing', () => {
  const bytes = (n: number) => new Uint8Array(n);

  it('never holds more than its byte budget, evicting the least recently used first', () => {
    const cache = new EtagCache(1000);
    cache.set('u1', '"a"', bytes(400), []);
    cache.set('u2', '"b"', bytes(400), []);
    expect(cache.get('u1')?.etag).toBe('"a"'); // u1 is now the most recently used
    cache.set('u3', '"c"', bytes(400), []);
    expect(cache.get('u2')).toBeUndefined();
    expect(cache.get('u1')).toBeDefined();
    expect(cache.get('u3')).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(1000);
    // A body larger than the whole budget is not kept, and evicts nothing.
    cache.set('big', '"d"', bytes(2000), []);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('u1')).toBeDefined();
    // Replacing an entry releases its old bytes.
    cache.set('u1', '"e"', bytes(10), []);
    expect(cache.size).toBe(10 + 2 + 3 + 400 + 2 + 3);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.UTC(2026, 0, 1);
    expect(retryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(retryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
  it('reads only digits or an IMF-fixdate as Retry-After; anything else is as if absent', () => {
    const now = Date.UTC(2026, 0, 1);
    // Date.parse reads each of these as a day in 2001, which would mean "retry at once".
    for (const v of ['-1', '1.5', '1, 1', '+5', '5s', '0x10', '1e3', '', ' ', '3 4']) {
      expect(retryAfterMs(v, now), JSON.stringify(v)).toBeNull();
    }
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 30))).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:09 GMT', now)).toBe(9000);
    for (const v of [
      'Thu, 01 Jan 2026 00:00:09 UTC', // not GMT
      'Fri, 01 Jan 2026 00:00:09 GMT', // the wrong weekday
      'Mon, 31 Nov 2026 00:00:09 GMT', // no such day
      'Thu, 01 Jan 2026 00:00:60 GMT', // a leap second is not read
      'Thu, 1 Jan 2026 00:00:09 GMT', // one-digit day
      'Thursday, 01-Jan-26 00:00:09 GMT', // RFC 850
      'Thu Jan  1 00:00:09 2026', // asctime
      '2026-01-01T00:00:09Z', // ISO 8601
    ]) {
      expect(retryAfterMs(v, now), v).toBeNull();
    }
  });
});

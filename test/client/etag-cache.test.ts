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
});

import { describe, expect, it } from 'vitest';
import { CACHE_HEADER, EtagCache, retryAfterMs, withEtagCache } from '../../clients/typescript/src/index.ts';

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

/** withEtagCache with a transport whose body counts how much of it has been read. */
describe('typed client: ETag cache and bodies larger than its budget', () => {
  const url = 'http://x/api/v1/vendors';
  /** `chunks` chunks of `size` bytes (chunk i filled with i), and how many were pulled. */
  function counted(chunks: number, size: number, headers: Record<string, string>) {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          if (pulled === chunks) return c.close();
          c.enqueue(new Uint8Array(size).fill(pulled++ % 256));
        },
      },
      { highWaterMark: 0 },
    );
    const res = new Response(body, { status: 200, headers: { etag: '"big"', ...headers } });
    return { res, pulled: () => pulled };
  }
  const expectWhole = (got: Uint8Array, chunks: number, size: number) => {
    expect(got.byteLength).toBe(chunks * size);
    for (let i = 0; i < chunks; i++) expect(got[i * size], String(i)).toBe(i % 256);
  };

  it('hands on a body whose Content-Length exceeds the budget unread, and keeps nothing', async () => {
    const cache = new EtagCache(1000);
    cache.set(url, '"old"', new Uint8Array(10), []);
    const { res, pulled } = counted(100, 100, { 'content-length': '10000' });
    const send = withEtagCache(async () => res, cache);
    const got = await send(new Request(url));
    // Not one byte of it read by the cache, and not a copy: the very response.
    expect(pulled()).toBe(0);
    expect(got === res).toBe(true);
    expectWhole(new Uint8Array(await got.arrayBuffer()), 100, 100);
    // The old entry went with its old ETag; the new body was not kept.
    expect(cache.get(url)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stops reading a body without Content-Length at the budget, and the caller still gets all of it', async () => {
    const cache = new EtagCache(1000);
    cache.set(url, '"old"', new Uint8Array(10), []);
    const { res, pulled } = counted(100, 100, {});
    const got = await withEtagCache(async () => res, cache)(new Request(url));
    // 11 chunks of 100 bytes pass the budget of 1000: the cache read no further.
    expect(pulled()).toBeLessThanOrEqual(12);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"big"');
    expectWhole(new Uint8Array(await got.arrayBuffer()), 100, 100);
    expect(pulled()).toBe(100);
    expect(cache.get(url)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('still keeps a body within the budget, with or without Content-Length, and answers a 304 from it', async () => {
    for (const headers of [{ 'content-length': '500' }, {}] as Record<string, string>[]) {
      const cache = new EtagCache(1000);
      let calls = 0;
      const send = withEtagCache(async (request) => {
        calls++;
        if (request.headers.get('if-none-match') === '"big"') return new Response(null, { status: 304 });
        return counted(5, 100, headers).res;
      }, cache);
      expectWhole(new Uint8Array(await (await send(new Request(url))).arrayBuffer()), 5, 100);
      expect(cache.get(url)?.body.byteLength).toBe(500);
      const again = await send(new Request(url));
      expect(again.headers.get(CACHE_HEADER)).toBe('revalidated');
      expectWhole(new Uint8Array(await again.arrayBuffer()), 5, 100);
      expect(calls).toBe(2);
    }
  });
});

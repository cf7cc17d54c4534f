import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPureRankClient } from '../../clients/typescript/src/index.ts';
import { type ClientServer, startClientServer } from './server.ts';

/**
 * 429 handling against the real limiter: a custom-plan key with a Variant B limit of 1. The
 * client's wait is the one thing replaced: it advances the server's ManualClock by the Retry-After
 * instead of sleeping, so the retry lands exactly when the server said it would admit it.
 */
describe('typed client: 429 and Retry-After', () => {
  let s: ClientServer;
  beforeAll(async () => {
    s = await startClientServer();
  });
  afterAll(async () => s?.ctx.close());
  beforeEach(() => {
    s.wire.length = 0;
  });

  const tinyKey = () => s.ctx.keyFor('custom', undefined, { rateLimitB: 1 });

  it('retries a 429 after Retry-After and returns the retried answer', async () => {
    const waits: number[] = [];
    const c = createPureRankClient({
      baseUrl: s.baseUrl,
      apiKey: await tinyKey(),
      fetch: s.fetch,
      etagCacheBytes: 0,
      retry: {
        maxDelayMs: 2 * 86_400_000,
        sleep: async (ms) => {
          waits.push(ms);
          s.ctx.clock.advance(ms);
        },
      },
    });
    expect((await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } })).response.status).toBe(
      200,
    );
    const r = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'beta' } } });
    expect(s.wire).toEqual([200, 429, 200]);
    expect(r.response.status).toBe(200);
    expect(r.data?.data.slug).toBe('beta');
    // Variant B's window is a rolling 24 h: the one request frees exactly 86 400 s later.
    expect(waits).toEqual([86_400_000]);
  });

  it('returns the 429 without waiting when Retry-After is longer than maxDelayMs', async () => {
    const waits: number[] = [];
    const c = createPureRankClient({
      baseUrl: s.baseUrl,
      apiKey: await tinyKey(),
      fetch: s.fetch,
      etagCacheBytes: 0,
      retry: { maxDelayMs: 60_000, sleep: async (ms) => void waits.push(ms) },
    });
    await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    const r = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    expect(r.response.status).toBe(429);
    expect(r.error?.error.code).toBe('rate_limited');
    expect(r.response.headers.get('retry-after')).toBe('86400');
    expect(waits).toEqual([]);
    expect(s.wire).toEqual([200, 429]);
  });

  it('gives up after maxRetries', async () => {
    const waits: number[] = [];
    const c = createPureRankClient({
      baseUrl: s.baseUrl,
      apiKey: await tinyKey(),
      fetch: s.fetch,
      etagCacheBytes: 0,
      // The wait does not move the clock: every retry meets the same full window.
      retry: { maxRetries: 2, maxDelayMs: 2 * 86_400_000, sleep: async (ms) => void waits.push(ms) },
    });
    await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    const r = await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    expect(r.response.status).toBe(429);
    expect(s.wire).toEqual([200, 429, 429, 429]);
    expect(waits).toHaveLength(2);
  });

  it('stops waiting when the request is aborted (the real timer)', async () => {
    const c = createPureRankClient({
      baseUrl: s.baseUrl,
      apiKey: await tinyKey(),
      fetch: s.fetch,
      etagCacheBytes: 0,
      retry: { maxDelayMs: 2 * 86_400_000 },
    });
    await c.b.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } });
    const started = Date.now();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = await c.b
      .GET('/vendors/{slug}', { params: { path: { slug: 'apex' } }, signal: ac.signal })
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.wire).toEqual([200, 429]);
  });
});

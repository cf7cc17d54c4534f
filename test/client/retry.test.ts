import { createHash } from 'node:crypto';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import { createPureRankClient, ReplayableRequest, withRetry } from '../../clients/typescript/src/index.ts';
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

  it('retries an upload after a 429 without holding a copy of its body (no Request.clone of it)', async () => {
    const waits: number[] = [];
    const c = createPureRankClient({
      baseUrl: s.baseUrl,
      apiKey: await s.ctx.keyFor('custom', undefined, { rateLimitA: 1 }),
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
    expect((await c.a.GET('/vendors/{slug}', { params: { path: { slug: 'apex' } } })).response.status).toBe(
      200,
    );
    const form = new FormData();
    const pdf = new Uint8Array(2 * 1024 * 1024).fill(0x20);
    pdf.set(Buffer.from('%PDF-1.7\n'));
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'coa.pdf');
    form.append('peptide', 'unobtainium-9');
    const clone = vi.spyOn(Request.prototype, 'clone');
    try {
      // openapi-fetch sends a FormData as it is.
      const r = await c.a.POST('/coa/verify', { body: form as never });
      expect(s.wire).toEqual([200, 429, 400]);
      // The retried form arrived whole, with a boundary that matches its Content-Type: the
      // server read the fields and refused the peptide.
      expect(r.response.status).toBe(400);
      expect(r.error?.error.code).toBe('invalid_parameter');
      expect(r.error?.error.message).toContain("'peptide'");
      // Variant A's window is an hour: the one request frees 3600 s later.
      expect(waits).toEqual([3_600_000]);
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });
});

/** withRetry on its own, with a transport that answers what the test says. */
describe('typed client: withRetry without a server', () => {
  const answer = (status: number, retryAfter?: string) =>
    new Response('{}', { status, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });
  let clone: MockInstance<Request['clone']>;
  beforeEach(() => {
    clone = vi.spyOn(Request.prototype, 'clone');
  });
  afterEach(() => clone.mockRestore());

  it.each(['-1', '1.5', '1, 1', 'soon'])(
    'returns a 429 whose Retry-After is %j at once, as if it had none',
    async (v) => {
      let calls = 0;
      const sleep = vi.fn(async () => {});
      const send = withRetry(
        async () => {
          calls++;
          return calls === 1 ? answer(429, v) : answer(200);
        },
        { sleep },
      );
      expect((await send(new Request('http://x/v1/vendors'))).status).toBe(429);
      expect(calls).toBe(1);
      expect(sleep).not.toHaveBeenCalled();
    },
  );

  it('sends a ReplayableRequest again from its body source: string, bytes, Blob, URLSearchParams, FormData', async () => {
    const bytes = new Uint8Array(1024 * 1024).map((_, i) => i % 251);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'coa.pdf');
    form.append('peptide', 'bpc-157');
    const sha = (b: ArrayBuffer | Uint8Array) => createHash('sha256').update(new Uint8Array(b)).digest('hex');
    const cases: [string, RequestInit['body'], (r: Request) => Promise<string>][] = [
      ['string', '{"a":1}', (r) => r.text()],
      ['bytes', bytes, async (r) => sha(await r.arrayBuffer())],
      ['Blob', new Blob([bytes]), async (r) => sha(await r.arrayBuffer())],
      ['URLSearchParams', new URLSearchParams({ a: '1', b: 'two' }), (r) => r.text()],
      [
        'FormData',
        form,
        async (r) => {
          const f = await r.formData();
          return `${f.get('peptide')} ${sha(await (f.get('file') as Blob).arrayBuffer())}`;
        },
      ],
    ];
    for (const [why, body, read] of cases) {
      const seen: string[] = [];
      const send = withRetry(
        async (r) => {
          seen.push(`${r.method} ${r.headers.get('x-keep')} ${await read(r)}`);
          return seen.length === 1 ? answer(429, '0') : answer(200);
        },
        { sleep: async () => {} },
      );
      const request = new ReplayableRequest('http://x/v1/coa/verify', {
        method: 'POST',
        body,
        headers: { 'x-keep': 'yes' },
      });
      expect((await send(request)).status, why).toBe(200);
      expect(seen, why).toHaveLength(2);
      expect(seen[1], why).toBe(seen[0]);
      expect(seen[0], why).toMatch(/^POST yes ./);
    }
    expect(clone).not.toHaveBeenCalled();
  });

  it('sends a request with a body it cannot make again (a stream, a plain Request) once, and returns its 429', async () => {
    for (const request of [
      new ReplayableRequest('http://x/', {
        method: 'POST',
        body: new Blob(['abc']).stream(),
        duplex: 'half',
      } as RequestInit),
      new Request('http://x/', { method: 'POST', body: 'abc' }),
    ]) {
      let calls = 0;
      const send = withRetry(
        async (r) => {
          calls++;
          await r.text();
          return answer(429, '0');
        },
        { sleep: async () => {} },
      );
      expect((await send(request)).status).toBe(429);
      expect(calls).toBe(1);
    }
    expect(clone).not.toHaveBeenCalled();
  });

  it('retries a request without a body, a fresh clone each time', async () => {
    const seen: Request[] = [];
    const send = withRetry(
      async (r) => {
        seen.push(r);
        return seen.length < 3 ? answer(429, '0') : answer(200);
      },
      { sleep: async () => {} },
    );
    const request = new Request('http://x/v1/vendors');
    expect((await send(request)).status).toBe(200);
    expect(seen).toHaveLength(3);
    expect(seen[0]).toBe(request);
    expect(new Set(seen).size).toBe(3);
  });
});

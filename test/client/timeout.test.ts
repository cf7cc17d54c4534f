import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPureRankClient, DEFAULT_TIMEOUT_MS } from '../../clients/typescript/src/index.ts';

/** What a promise failed with; an Error saying so when it did not fail. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('resolved'),
    (e: unknown) => e as Error,
  );

/**
 * The client's time limit against real sockets: node:http servers that accept a request and then
 * answer late, in part, or never. Each test gives the client a short limit and the test itself a
 * few seconds: without a limit the request would hang for undici's 300 s.
 */
describe('typed client: time limit of each attempt', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  /** A server that hands every request to `handle`, and counts them. */
  async function serve(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
    let n = 0;
    const server = createServer((req, res) => handle(req, res, ++n));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { baseUrl: `http://127.0.0.1:${port}`, requests: () => n };
  }

  it('aborts a request the server accepts and never answers, with a TimeoutError', {
    timeout: 5000,
  }, async () => {
    const s = await serve(() => {
      // Read, never answered.
    });
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'k', timeoutMs: 200 });
    const started = Date.now();
    const err = await failure(c.b.GET('/vendors'));
    expect(err.name).toBe('TimeoutError');
    expect(err.message).toContain('timeoutMs (200 ms)');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
    // A time-out is not retried: the server may be working on it.
    expect(s.requests()).toBe(1);
  });

  it('times the body too: a 429 with Retry-After: 0 whose body never ends', { timeout: 5000 }, async () => {
    const s = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.write('{"error":');
    });
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'k', timeoutMs: 300 });
    const started = Date.now();
    const err = await failure(c.b.GET('/vendors'));
    expect(err.name).toBe('TimeoutError');
    // The first two 429s are retried at once (their bodies cancelled); the third is returned,
    // and reading its body is what the limit ends.
    expect(s.requests()).toBe(3);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('times the whole body, not the pauses in it', { timeout: 5000 }, async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      let i = 0;
      const t = setInterval(() => {
        // A chunk every 50 ms, for 2 s in all: never idle long, always too long overall.
        if (++i === 40 || res.destroyed) {
          clearInterval(t);
          res.end(']');
        } else res.write(`${i},`);
      }, 50);
    });
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'k', timeoutMs: 300 });
    const err = await failure(c.b.GET('/vendors'));
    expect(err.name).toBe('TimeoutError');
  });

  it("lets the caller's signal abort first, with the caller's reason", { timeout: 5000 }, async () => {
    const s = await serve(() => {});
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'k', timeoutMs: 10_000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    const err = await failure(c.b.GET('/vendors', { signal: ac.signal }));
    expect(err.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    // Already aborted: not sent at all.
    const before = s.requests();
    const again = await failure(c.b.GET('/vendors', { signal: AbortSignal.abort(new Error('stop')) }));
    expect(again.message).toBe('stop');
    expect(s.requests()).toBe(before);
  });

  it('does not count the Retry-After wait between attempts', { timeout: 10_000 }, async () => {
    const s = await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end('{"error":{"code":"rate_limited","message":"wait"}}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":{"vendors":[],"total":0,"limit":50,"offset":0}}');
      }
    });
    // A 1 s wait (the real timer) under a 400 ms limit per attempt.
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'k', timeoutMs: 400 });
    const started = Date.now();
    const r = await c.b.GET('/vendors');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(r.response.status).toBe(200);
    expect(r.data?.data.total).toBe(0);
    expect(s.requests()).toBe(2);
    // The response is still the one fetch made.
    expect(r.response.url).toBe(`${s.baseUrl}/api/v1/vendors`);
  });

  it('sends an upload under the limit, its body moved, not copied', { timeout: 5000 }, async () => {
    const s = await serve((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'invalid_parameter', message: String(bytes) } }));
      });
    });
    const c = createPureRankClient({ baseUrl: s.baseUrl, apiKey: 'k', timeoutMs: 2000 });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(1024 * 1024)], { type: 'application/pdf' }), 'coa.pdf');
    const r = await c.a.POST('/coa/verify', { body: form as never });
    expect(r.response.status).toBe(400);
    expect(Number(r.error?.error.message)).toBeGreaterThan(1024 * 1024);
  });
});

/** The default limit and the options, with a transport that never answers and fake timers. */
describe('typed client: time limit defaults and options', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A transport that answers only when the request's signal aborts it. */
  const never = async (request: Request): Promise<Response> =>
    new Promise((_resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });

  it('limits each attempt to 30 s by default', async () => {
    vi.useFakeTimers();
    const c = createPureRankClient({ baseUrl: 'http://x', apiKey: 'k', fetch: never });
    let settled: unknown = 'pending';
    void c.b.GET('/vendors').then(
      () => {
        settled = 'resolved';
      },
      (e: unknown) => {
        settled = e;
      },
    );
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect((settled as Error).name).toBe('TimeoutError');
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
  });

  it('holds even for a transport that ignores the signal, before the headers and in the body', {
    timeout: 5000,
  }, async () => {
    vi.useFakeTimers();
    const deaf = createPureRankClient({
      baseUrl: 'http://x',
      apiKey: 'k',
      timeoutMs: 1000,
      fetch: () => new Promise<Response>(() => {}),
    });
    const first = failure(deaf.b.GET('/vendors'));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await first).name).toBe('TimeoutError');

    let cancelled: unknown = null;
    const endless = createPureRankClient({
      baseUrl: 'http://x',
      apiKey: 'k',
      timeoutMs: 1000,
      etagCacheBytes: 0,
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start: (c) => c.enqueue(new TextEncoder().encode('{"data":')),
            cancel: (reason) => {
              cancelled = reason;
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    });
    const second = failure(endless.b.GET('/vendors'));
    await vi.advanceTimersByTimeAsync(1000);
    const err = await second;
    expect(err.name).toBe('TimeoutError');
    // The source was let go, with the same reason.
    expect(cancelled).toBe(err);
  });

  it('stops the clock once the body is read: no timer is left behind', async () => {
    vi.useFakeTimers();
    const c = createPureRankClient({
      baseUrl: 'http://x',
      apiKey: 'k',
      fetch: async () => Response.json({ data: { vendors: [], total: 0, limit: 50, offset: 0 } }),
    });
    const r = await c.b.GET('/vendors');
    expect(r.data?.data.total).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('has no limit with 0 or Infinity, and refuses a limit that is not one', async () => {
    vi.useFakeTimers();
    for (const timeoutMs of [0, Number.POSITIVE_INFINITY]) {
      const c = createPureRankClient({ baseUrl: 'http://x', apiKey: 'k', timeoutMs, fetch: never });
      let settled = false;
      void c.b.GET('/vendors').finally(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(settled, String(timeoutMs)).toBe(false);
    }
    for (const timeoutMs of [Number.NaN, -1, 2 ** 31, Number.NEGATIVE_INFINITY]) {
      expect(
        () => createPureRankClient({ baseUrl: 'http://x', apiKey: 'k', timeoutMs }),
        String(timeoutMs),
      ).toThrow(/timeoutMs must be/);
    }
  });
});

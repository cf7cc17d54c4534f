/** One remembered 200: its ETag, its body bytes and its headers, replayed on a 304. */
interface Entry {
  etag: string;
  body: Uint8Array;
  headers: [string, string][];
  bytes: number;
}

/** The header set on a body served from the cache after the server answered 304. */
export const CACHE_HEADER = 'x-purerank-client-cache';

/**
 * Bodies of GETs by URL, least recently used evicted first, bounded in bytes (bodies and
 * headers counted) so a long-lived client never grows without limit. A body larger than the
 * whole budget is not kept, and `withEtagCache` does not read it whole to find that out.
 */
export class EtagCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  /** @param maxBytes the budget; no body larger than it is read for the cache. */
  constructor(readonly maxBytes: number) {}

  get(url: string): Entry | undefined {
    const e = this.entries.get(url);
    if (e) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.entries.delete(url);
      this.entries.set(url, e);
    }
    return e;
  }

  set(url: string, etag: string, body: Uint8Array, headers: [string, string][]): void {
    this.delete(url);
    const bytes =
      body.byteLength + url.length + etag.length + headers.reduce((n, [k, v]) => n + k.length + v.length, 0);
    if (bytes > this.maxBytes) return;
    while (this.used + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    this.entries.set(url, { etag, body, headers, bytes });
    this.used += bytes;
  }

  delete(url: string): void {
    const e = this.entries.get(url);
    if (!e) return;
    this.entries.delete(url);
    this.used -= e.bytes;
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.used;
  }
}

/**
 * Conditional GETs: sends the remembered ETag as `If-None-Match` and, on 304, answers with the
 * remembered body as a 200 (with the 304's fresh rate-limit headers and CACHE_HEADER). A request
 * that sets `If-None-Match` itself is passed through untouched: the caller wants to see the 304.
 */
export function withEtagCache(
  next: (request: Request) => Promise<Response>,
  cache: EtagCache,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' || request.headers.has('if-none-match')) return next(request);
    const url = request.url;
    const cached = cache.get(url);
    if (cached) request.headers.set('if-none-match', cached.etag);
    const res = await next(request);
    if (res.status === 304 && cached) {
      const headers = new Headers(cached.headers);
      for (const [k, v] of res.headers) headers.set(k, v);
      headers.set(CACHE_HEADER, 'revalidated');
      return new Response(cached.body.slice(), { status: 200, statusText: 'OK', headers });
    }
    const etag = res.headers.get('etag');
    if (res.status !== 200 || !etag) {
      if (res.status === 200) cache.delete(url);
      return res;
    }
    // A body larger than the whole budget would not be kept: it is handed on unread rather than
    // buffered and copied only to be dropped (a 200 MB body held three times over). The old
    // entry goes: its ETag is not the current one.
    if (Number(res.headers.get('content-length')) > cache.maxBytes) {
      cache.delete(url);
      return res;
    }
    // Read the body once to keep it, then hand the caller an equal, unread response. Without a
    // Content-Length (chunked, or decoded from gzip) the reading stops at the budget.
    const read = await readAtMost(res.body, cache.maxBytes);
    if (read instanceof ReadableStream) {
      cache.delete(url);
      return new Response(read, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    const body = read;
    const headers: [string, string][] = [];
    for (const [k, v] of res.headers) headers.push([k, v]);
    cache.set(url, etag, body, headers);
    return new Response(body.slice(), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/**
 * The whole body, if it has at most `limit` bytes; otherwise a stream of the same bytes (the
 * chunks read so far, then the rest as it comes), so a body too large to keep is never held whole.
 */
async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    chunks.push(r.value);
    total += r.value.byteLength;
    if (total > limit) {
      return new ReadableStream<Uint8Array>({
        async pull(c) {
          const first = chunks.shift();
          if (first !== undefined) return c.enqueue(first);
          const next = await reader.read();
          if (next.done) c.close();
          else c.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
    }
  }
  const whole = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    whole.set(c, at);
    at += c.byteLength;
  }
  return whole;
}

export interface RetryOptions {
  /** Retries after the first attempt (default 2). 0 turns retrying off. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned (default 60 000 ms). */
  maxDelayMs?: number;
  /** How to wait; the default is a timer that the request's AbortSignal cancels. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** RFC 9110's IMF-fixdate, the one HTTP-date form a server should send: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Milliseconds from a Retry-After value: delta-seconds (digits only) or an IMF-fixdate; null
 * when absent or anything else, as if the header were not there. `Date.parse` alone is too
 * lenient: it reads "-1", "1.5" and "1, 1" as dates in 2001, which would mean "retry now". A
 * date must also be a real one, with its right weekday (it is printed back and compared), so
 * "Sun, 31 Nov 1994 …" or a leap second (":60") are refused too. The obsolete RFC 850 and
 * asctime forms are not read.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!IMF_FIXDATE.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) || new Date(at).toUTCString() !== v ? null : Math.max(0, at - now);
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type Body = NonNullable<RequestInit['body']>;
const bodySources = new WeakMap<Request, Body>();

/** Bodies a new Request can be made from again: not a stream, which can be read only once. */
const isReplayable = (body: unknown): body is Body =>
  typeof body === 'string' ||
  body instanceof FormData ||
  body instanceof URLSearchParams ||
  body instanceof Blob ||
  body instanceof ArrayBuffer ||
  ArrayBuffer.isView(body);

/**
 * A Request that remembers what its body was made from (a string, FormData, Blob, bytes or
 * URLSearchParams), so `withRetry` can make the request again from the same source instead of
 * keeping a second copy of the body. The client makes all its requests with it.
 */
export class ReplayableRequest extends Request {
  constructor(input: ConstructorParameters<typeof Request>[0], init?: RequestInit) {
    super(input, init);
    const body = init?.body;
    if (isReplayable(body)) bodySources.set(this, body);
  }
}

/** How to send `request` again, or null when its body cannot be had again without a copy. */
function replayer(request: Request): (() => Request) | null {
  // No body: a clone costs nothing and is usable after the original was sent.
  if (request.body === null) return () => request.clone();
  const source = bodySources.get(request);
  if (source === undefined) return null;
  return () => {
    const headers = new Headers(request.headers);
    // A FormData gets a new multipart boundary each time it is sent: let the new one be set.
    if (source instanceof FormData) headers.delete('content-type');
    return new Request(request, { body: source, headers });
  };
}

/**
 * Retries a 429 after its Retry-After: at most `maxRetries` times, never waiting longer than
 * `maxDelayMs` (a quota that frees in hours is reported, not slept on), and the wait ends with an
 * abort of the request's signal. A 429 without a usable Retry-After is returned as it is: the
 * server did not say when, and guessing would only spend the quota faster.
 *
 * No copy of a body is kept for the retry: a request without a body is cloned when it is
 * retried, a `ReplayableRequest` is made again from its body's source, and any other request
 * with a body (a stream, or a plain Request whose source is unknown) is sent once, its 429
 * returned. (`Request.clone()` before sending would tee the body: every byte sent would also be
 * buffered for the copy, 10 MB more held for a 10 MB upload, retried or not.)
 */
export function withRetry(
  next: (request: Request) => Promise<Response>,
  opts: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const maxRetries = opts.maxRetries ?? 2;
  const maxDelayMs = opts.maxDelayMs ?? 60_000;
  const sleep = opts.sleep ?? abortableSleep;
  return async (request) => {
    const again = maxRetries > 0 ? replayer(request) : null;
    let res = await next(request);
    if (again === null) return res;
    for (let attempt = 0; attempt < maxRetries && res.status === 429; attempt++) {
      const delay = retryAfterMs(res.headers.get('retry-after'));
      if (delay === null || delay > maxDelayMs) break;
      await res.body?.cancel();
      await sleep(delay, request.signal);
      res = await next(again());
    }
    return res;
  };
}

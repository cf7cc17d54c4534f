export interface RetryOptions {
  /** Retries after the first attempt (default 2). 0 turns retrying off. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned (default 60 000 ms). */
  maxDelayMs?: number;
  /** How to wait; the default is a timer that the request's AbortSignal cancels. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Milliseconds from a Retry-After value (delta-seconds or an HTTP date); null when unusable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
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

/**
 * Retries a 429 after its Retry-After: at most `maxRetries` times, never waiting longer than
 * `maxDelayMs` (a quota that frees in hours is reported, not slept on), and the wait ends with an
 * abort of the request's signal. A 429 without a usable Retry-After is returned as it is: the
 * server did not say when, and guessing would only spend the quota faster.
 */
export function withRetry(
  next: (request: Request) => Promise<Response>,
  opts: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const maxRetries = opts.maxRetries ?? 2;
  const maxDelayMs = opts.maxDelayMs ?? 60_000;
  const sleep = opts.sleep ?? abortableSleep;
  return async (request) => {
    // A body can be read once: keep an unread copy to clone for every attempt.
    const template = maxRetries > 0 ? request.clone() : request;
    let res = await next(request);
    for (let attempt = 0; attempt < maxRetries && res.status === 429; attempt++) {
      const delay = retryAfterMs(res.headers.get('retry-after'));
      if (delay === null || delay > maxDelayMs) break;
      await res.body?.cancel();
      await sleep(delay, request.signal);
      res = await next(template.clone());
    }
    return res;
  };
}

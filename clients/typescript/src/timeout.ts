/** The default time limit of one attempt, ms: headers and the whole body. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** setTimeout's largest delay: a longer one fires at once (Node warns and uses 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The time limit as given: 0 or Infinity means none (null); anything else must be a number of
 * ms that a timer can hold. A NaN or negative limit would fire at once or never, so it
 * throws: a misconfigured client, not a slow server.
 */
export function timeoutLimit(ms: number | undefined): number | null {
  const v = ms ?? DEFAULT_TIMEOUT_MS;
  if (v === 0 || v === Number.POSITIVE_INFINITY) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_TIMER_MS) {
    throw new Error(
      `PureRank client: timeoutMs must be 0 or Infinity (no limit) or a number of ms from 1 to ${MAX_TIMER_MS} (got ${String(v)})`,
    );
  }
  return v;
}

/**
 * Gives each request at most `ms` to answer, its body included: after that the request is
 * aborted with a `TimeoutError` DOMException, so a server that accepts and never answers, or
 * stops in the middle of a body, cannot hold a caller for undici's 300 s defaults. The request's
 * own signal still aborts it (with its reason) before then. The clock starts when the request is
 * sent and stops when its body has been read to the end, cancelled or failed; used inside
 * `withRetry`, each attempt has its own limit and the Retry-After waits between attempts are not
 * counted. A body nobody reads is aborted when the limit passes (a stream read later included):
 * the timer holds no process open meanwhile.
 */
export function withTimeout(
  next: (request: Request) => Promise<Response>,
  ms: number,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const controller = new AbortController();
    const caller = request.signal;
    const onAbort = () => controller.abort(caller.reason);
    const timer = setTimeout(
      () =>
        controller.abort(
          new DOMException(`the request took longer than timeoutMs (${ms} ms)`, 'TimeoutError'),
        ),
      ms,
    );
    // The response is the caller's to read when it likes: a pending limit must not keep Node up.
    // (A bundle for a browser gets a number, which has no unref.)
    (timer as { unref?: () => void }).unref?.();
    const done = () => {
      clearTimeout(timer);
      caller.removeEventListener('abort', onAbort);
    };
    if (caller.aborted) onAbort();
    else caller.addEventListener('abort', onAbort, { once: true });
    // The limit holds even for a transport that ignores the signal: the answer is raced with it.
    const aborted = new Promise<never>((_resolve, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => {});
    // The body moves to the new request (no copy); its signal is the one either side aborts.
    const sent = next(new Request(request, { signal: controller.signal }));
    let res: Response;
    try {
      res = await Promise.race([sent, aborted]);
    } catch (e) {
      done();
      // An answer that comes after all is nobody's: its body is let go, its failure ignored.
      sent
        .then(
          (late) => late.body?.cancel(),
          () => {},
        )
        .catch(() => {});
      throw controller.signal.aborted ? controller.signal.reason : e;
    }
    if (res.body === null) {
      done();
      return res;
    }
    return timedBody(res, done, controller.signal);
  };
}

/**
 * The same response, its body passed through chunk by chunk (nothing buffered) so the end of
 * the body is seen: then the limit stops. An abort in the middle fails the read at once with the
 * abort's reason (a TimeoutError, or the caller's), not undici's generic "terminated", and
 * whether or not the source stream heeds the signal.
 */
function timedBody(res: Response, done: () => void, signal: AbortSignal): Response {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let onAbort = () => {};
  const finish = () => {
    done();
    signal.removeEventListener('abort', onAbort);
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      onAbort = () => {
        finish();
        c.error(signal.reason);
        reader.cancel(signal.reason).catch(() => {});
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(c) {
      try {
        const r = await reader.read();
        // Aborted while reading: the stream has already failed with the reason.
        if (signal.aborted) return;
        if (r.done) {
          finish();
          c.close();
        } else c.enqueue(r.value);
      } catch (e) {
        finish();
        if (!signal.aborted) c.error(e);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  const timed = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  // A Response made here has no URL and says it was not redirected: keep what fetch said.
  Object.defineProperties(timed, {
    url: { value: res.url },
    redirected: { value: res.redirected },
  });
  return timed;
}

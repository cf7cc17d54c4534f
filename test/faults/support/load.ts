/** One request's outcome, as a client saw it. */
export interface Outcome {
  /** When it was sent, ms since the epoch. */
  at: number;
  /** When its answer (or failure) arrived. */
  doneAt: number;
  label: string;
  /** The HTTP status, or 0 when no answer came (connection refused or reset). */
  status: number;
  body: string;
  retryAfter: string | null;
  error?: string;
}

export interface Probe {
  label: string;
  url: string;
  init?: RequestInit;
}

/** Sends one request and records what came back; never throws. */
export async function send(probe: Probe, timeoutMs = 10_000): Promise<Outcome> {
  const at = Date.now();
  try {
    const res = await fetch(probe.url, { ...probe.init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return {
      at,
      doneAt: Date.now(),
      label: probe.label,
      status: res.status,
      body,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return {
      at,
      doneAt: Date.now(),
      label: probe.label,
      status: 0,
      body: '',
      retryAfter: null,
      error: cause ?? (err as Error).message,
    };
  }
}

/**
 * A loop of requests running in the background: `concurrency` clients, each sending the next
 * probe as soon as its previous answer arrived (after `pauseMs`), until stop().
 */
export function startLoad(probes: () => Probe, opts: { concurrency: number; pauseMs: number }) {
  const outcomes: Outcome[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      outcomes.push(await send(probes()));
      if (opts.pauseMs > 0) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  };
  const clients = Array.from({ length: opts.concurrency }, () => client());
  return {
    outcomes,
    async stop(): Promise<Outcome[]> {
      running = false;
      await Promise.all(clients);
      return outcomes;
    },
  };
}

/** Cycles through probes in order. */
export function roundRobin(list: readonly Probe[]): () => Probe {
  let i = 0;
  return () => list[i++ % list.length]!;
}

/** Words of a driver's or server's error that must never reach a client. */
export const LEAKS =
  /ECONNREFUSED|ECONNRESET|57P0\d|terminating connection|Connection terminated|not queryable|timeout exceeded|postgres|pg_|SQL|stack/i;

/** Fails with the first few outcomes that are not as expected, so a failure says what happened. */
export function describe(outcomes: readonly Outcome[], max = 5): string {
  return outcomes
    .slice(0, max)
    .map((o) => `${o.label} @${o.at}: ${o.status}${o.error ? ` (${o.error})` : ''} ${o.body.slice(0, 200)}`)
    .join('\n');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` answers true (polling every `everyMs`), or fails after `withinMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  withinMs: number,
  everyMs = 50,
): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > withinMs) throw new Error(`not true within ${withinMs} ms`);
    await sleep(everyMs);
  }
}

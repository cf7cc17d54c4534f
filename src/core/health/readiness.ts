/**
 * Whether this instance can do its work (issue [9]: `/readyz` for load balancers): its database
 * answers a query and, when the rate limits are shared through Redis, Redis answers a ping. Each
 * probe has a time limit, so a server that hangs reads as down rather than holding the check.
 * `/healthz` stays what it was: the process is alive.
 */
export type ProbeState = 'ok' | 'unreachable' | 'not configured';

export interface Readiness {
  ready: boolean;
  checks: { database: ProbeState; redis: ProbeState };
}

export interface ReadinessProbes {
  /** A real query against the database. */
  database(): Promise<unknown>;
  /** A round trip to Redis; absent when Redis is not configured. */
  redis?: () => Promise<unknown>;
}

/** Each probe's time limit. (Default: 1 s) */
export const PROBE_TIMEOUT_MS = 1000;

export async function checkReadiness(
  probes: ReadinessProbes,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    probe(probes.database, timeoutMs),
    probes.redis ? probe(probes.redis, timeoutMs) : Promise.resolve<ProbeState>('not configured'),
  ]);
  return { ready: database === 'ok' && redis !== 'unreachable', checks: { database, redis } };
}

async function probe(run: () => Promise<unknown>, timeoutMs: number): Promise<ProbeState> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<ProbeState>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), timeoutMs);
  });
  try {
    return await Promise.race([run().then((): ProbeState => 'ok'), late]);
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

/** How long a finished check answers later callers. (250 ms) */
export const READINESS_REUSE_MS = 250;

/**
 * One check shared by every caller while it runs, and its result reused for `reuseMs` after it
 * ends, a failure included: `/readyz` is reachable by anyone, and each check is a database read and
 * a Redis round trip, so its cost must not grow with the request rate. A change is seen within
 * `reuseMs` plus one check (at most the probes' 1 s).
 */
export function sharedReadiness(
  check: () => Promise<Readiness>,
  reuseMs = READINESS_REUSE_MS,
  now: () => number = () => performance.now(),
): () => Promise<Readiness> {
  let running: Promise<Readiness> | null = null;
  let last: { result: Readiness; at: number } | null = null;
  return () => {
    if (last !== null && now() - last.at < reuseMs) return Promise.resolve(last.result);
    running ??= check()
      .then((result) => {
        last = { result, at: now() };
        return result;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
}

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

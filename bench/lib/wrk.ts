import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchError, cpuTimeMs } from './procs.ts';

export const ROTATE_SCRIPT = fileURLToPath(new URL('../wrk/rotate.lua', import.meta.url));

/** What one wrk run reports (from rotate.lua's done() hook). */
export interface WrkResult {
  durationUs: number;
  requests: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: {
    min: number;
    mean: number;
    stdev: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    p999: number;
  };
  /** requests / duration. */
  rps: number;
}

export function wrkAvailable(): boolean {
  const r = spawnSync('wrk', ['-v'], { stdio: 'ignore' });
  return !(r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT');
}

export interface WrkRun {
  url: string;
  seconds: number;
  connections: number;
  keysFile: string;
  pathsFile: string | null;
  auth: { header: string; prefix: string };
  /** CPU list for taskset, or null to run unpinned. */
  cpu: string | null;
}

/** One thread (so rotate.lua's rotation is exact and the client needs one core), pinned when possible. */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const wrkArgs = [
    '-t1',
    `-c${run.connections}`,
    `-d${run.seconds}s`,
    '--latency',
    '-s',
    ROTATE_SCRIPT,
    run.url,
  ];
  const [cmd, args] = run.cpu === null ? ['wrk', wrkArgs] : ['taskset', ['-c', run.cpu, 'wrk', ...wrkArgs]];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_KEYS: run.keysFile,
    BENCH_AUTH_HEADER: run.auth.header,
    BENCH_AUTH_PREFIX: run.auth.prefix,
  };
  if (run.pathsFile) env.BENCH_PATHS = run.pathsFile;
  else delete env.BENCH_PATHS;
  const child = spawn(cmd as string, args as string[], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '));
  if (code !== 0 || !line) {
    throw new BenchError(`wrk failed (exit ${code}) for ${run.url}:\n${err || out}`);
  }
  const j = JSON.parse(line.slice('BENCH_JSON '.length)) as {
    duration_us: number;
    requests: number;
    bytes: number;
    errors: WrkResult['errors'];
    latency_us: WrkResult['latencyUs'];
  };
  return {
    durationUs: j.duration_us,
    requests: j.requests,
    bytes: j.bytes,
    errors: j.errors,
    latencyUs: j.latency_us,
    rps: j.requests / (j.duration_us / 1e6),
  };
}

/** A wrk result plus what the server process spent on it. */
export interface Measured extends WrkResult {
  /** CPU time (user + system, all threads) of the server process during the run. */
  cpuMs: number;
  /** Server CPU per request, µs: a cross-check of the req/s ratio that preemption disturbs less. */
  cpuUsPerRequest: number;
  /** Server CPU time ÷ wall time: below ~0.9 the server was not saturated (preempted or starved of load). */
  busy: number;
}

/** One wrk run against the server process `pid`, with the CPU time that process spent meanwhile. */
export async function runWrkMeasured(run: WrkRun, pid: number): Promise<Measured> {
  const cpu0 = cpuTimeMs(pid);
  const w = await runWrk(run);
  const cpuMs = cpuTimeMs(pid) - cpu0;
  return {
    ...w,
    cpuMs,
    cpuUsPerRequest: (cpuMs * 1000) / Math.max(1, w.requests),
    busy: cpuMs / (w.durationUs / 1000),
  };
}

/**
 * Any service answer other than 2xx/304 (wrk counts status ≥ 400) or a timeout invalidates a run.
 * The freshness runs tolerate timeouts (wrk gives up on a request after 2 s): a list request that
 * waits that long behind a data change is part of what that scenario measures, and it reports them.
 */
export function checkRun(
  what: string,
  r: WrkResult,
  server: { output(): string },
  log: (line: string) => void,
  tolerateTimeouts = false,
): void {
  const e = r.errors;
  if (e.status > 0 || (e.timeout > 0 && !tolerateTimeouts) || e.connect > 0) {
    throw new BenchError(
      `${what}: ${e.status} responses ≥ 400, ${e.timeout} timeouts, ${e.connect} connect errors in ` +
        `${r.requests} requests — measuring errors is worthless. A 429 means the key budget was ` +
        `miscounted (delete .bench/keys.txt); anything else, see .bench/*.log.\n${server.output().slice(-2000)}`,
    );
  }
  if (e.read > 0 || e.write > 0) log(`warning: ${what}: ${e.read} read and ${e.write} write socket errors`);
}

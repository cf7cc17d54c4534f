import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A failure that makes the results meaningless: run.ts prints the message and exits 1. */
export class BenchError extends Error {
  override readonly name = 'BenchError';
}

const children = new Set<ChildProcess>();
/** Undo steps to run when the bench is interrupted (e.g. drop a throwaway PostgreSQL database). */
const undo = new Set<() => Promise<void>>();

/**
 * Registers an undo step for an interruption (SIGINT/SIGTERM); call the returned function once the
 * step has run normally. Steps run after the child processes have stopped.
 */
export function onInterrupt(step: () => Promise<void>): () => void {
  undo.add(step);
  return () => undo.delete(step);
}

/** Kills whatever is still running when the bench exits, however it exits. */
export function installCleanup(): void {
  process.once('exit', () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      process.stderr.write(`\n${sig}: stopping servers\n`);
      void Promise.allSettled([...children].map((c) => stopChild(c)))
        .then(() => Promise.allSettled([...undo].map((step) => step())))
        .then(() => process.exit(130));
    });
  }
}

/** Whether `taskset -c <cpu>` works here (the tool exists and the CPU is online). */
export function canPin(cpu: number): boolean {
  const r = spawnSync('taskset', ['-c', String(cpu), 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  port: number;
  /** Lines written so far (service log tail for error messages). */
  output(): string;
}

export function launch(
  cmd: string[],
  opts: { cpu: number | null; env: NodeJS.ProcessEnv; cwd: string; logFile: string },
): { child: ChildProcess; output: () => string } {
  const argv = opts.cpu === null ? cmd : ['taskset', '-c', String(opts.cpu), ...cmd];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const log = createWriteStream(opts.logFile);
  let tail = '';
  const keep = (d: Buffer) => {
    log.write(d);
    tail = (tail + d.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.once('close', () => log.end());
  return { child, output: () => tail };
}

export const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/** Starts the service and waits until /healthz answers. */
export async function startService(opts: {
  cwd: string;
  databaseUrl: string;
  cpu: number | null;
  logFile: string;
  nodeArgs: string[];
  timeoutMs?: number;
  /** More environment for the service (a scenario's configuration, e.g. WEBHOOK_*). */
  env?: NodeJS.ProcessEnv;
}): Promise<Spawned> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PURERANK_SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ...opts.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: opts.databaseUrl,
  };
  const { child, output } = launch(['node', ...opts.nodeArgs, 'bin/purerank.js', 'serve'], { ...opts, env });
  const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (exited(child))
      throw new BenchError(
        `the service exited during start-up (${child.exitCode ?? child.signalCode}):\n${output()}`,
      );
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return { child, pid: child.pid!, port, output };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await stopChild(child);
  throw new BenchError(
    `the service did not answer /healthz within ${(opts.timeoutMs ?? 180_000) / 1000} s:\n${output()}`,
  );
}

/** Starts bench/bare-server.ts and waits for its "LISTENING <port>" line. */
export async function startBare(opts: {
  cwd: string;
  responsesFile: string;
  cpu: number | null;
  logFile: string;
}): Promise<Spawned> {
  const { child, output } = launch(['node', '--import', 'tsx', 'bench/bare-server.ts', opts.responsesFile], {
    ...opts,
    env: process.env,
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited(child)) throw new BenchError(`the bare server exited during start-up:\n${output()}`);
    const m = /LISTENING (\d+)/.exec(output());
    if (m) return { child, pid: child.pid!, port: Number(m[1]), output };
    await sleep(50);
  }
  await stopChild(child);
  throw new BenchError(`the bare server did not start:\n${output()}`);
}

/** One answer the bare server replays (an entry of bench/bare-server.ts's responses.json). */
export interface CapturedAnswer {
  /** base64 */
  body: string;
  headers: [string, string][];
}

/**
 * The service's answer to `path` (must be 200, under the rate limit the bench plans for), kept for
 * the bare server: the ceiling answers with the same bytes, body and headers (values frozen here).
 */
export async function captureAnswer(
  port: number,
  path: string,
  auth: { header: string; prefix: string },
  key: string,
  plannedLimit: number,
): Promise<CapturedAnswer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { [auth.header]: auth.prefix + key },
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200)
    throw new BenchError(`capture ${path}: HTTP ${res.status} ${body.toString().slice(0, 300)}`);
  const limit = res.headers.get('x-ratelimit-limit');
  if (limit !== null && Number(limit) !== plannedLimit) {
    throw new BenchError(
      `the service enforces ${limit} requests per window, the bench plans for ${plannedLimit}`,
    );
  }
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
      headers.push([name, value]);
  });
  return { body: body.toString('base64'), headers };
}

/** SIGTERM (the service then flushes its rate-limit state), SIGKILL after 20 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await done;
  clearTimeout(timer);
}

export interface Memory {
  /** Resident set now, MB. */
  rssMb: number;
  /** Peak resident set so far, MB. */
  hwmMb: number;
}

/** VmRSS and VmHWM of a process (Linux /proc). */
export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new BenchError(`no ${field} in /proc/${pid}/status`);
    return Number(m[1]);
  };
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/**
 * Samples a process's resident set every `everyMs` until stopped, and keeps the highest: VmHWM says
 * how high the process ever went, this says during which stretch (a scenario) it got there.
 */
export function sampleRss(pid: number, everyMs = 50): { stop(): number } {
  let peak = readMemory(pid).rssMb;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, readMemory(pid).rssMb);
    } catch {
      // the process has exited; its last sample stands
    }
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      try {
        peak = Math.max(peak, readMemory(pid).rssMb);
      } catch {
        // as above
      }
      return peak;
    },
  };
}

/** The process name of a pid: 'node' once taskset has exec'd it. */
export function processName(pid: number): string {
  return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
}

/** CPU time (user + system, all threads) a process has used so far, in ms. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 (clock ticks).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/** CPU time per thread of a process so far, ms, and the thread's name, by thread id. */
export function threadCpuMs(pid: number): Map<number, { ms: number; name: string }> {
  const out = new Map<number, { ms: number; name: string }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { ms: ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS, name });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/**
 * How long one thread (by default the main thread) has run on a CPU and waited in the run queue for
 * one, ms (/proc/PID/task/TID/schedstat). The wait is what other processes cost it: a thread that is
 * neither running nor waiting is idle (it has nothing to do, or waits for I/O).
 */
export function schedMs(pid: number, tid = pid): { runMs: number; waitMs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ');
  return { runMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
}

/**
 * What `bin/purerank.js` will run: the compiled build when dist/.built is at least as new as every
 * file under src/ (and PURERANK_FROM_SOURCE is not 1), otherwise the TypeScript source through tsx,
 * which costs a loader thread and ~45 MB more resident memory. Mirrors the check in bin/purerank.js.
 */
export function serviceMode(root: string): 'build' | 'source' {
  if (process.env.PURERANK_FROM_SOURCE === '1') return 'source';
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }
    return t;
  };
  try {
    const builtAt = Number(readFileSync(join(root, 'dist', '.built'), 'utf8'));
    return builtAt >= newest(join(root, 'src')) ? 'build' : 'source';
  } catch {
    return 'source';
  }
}

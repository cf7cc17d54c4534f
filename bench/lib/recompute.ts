import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { removeDb, type ScaleSize, seedScale } from './dataset.ts';
import { BenchError, exited, launch, onInterrupt, stopChild } from './procs.ts';
import type { ScoreSummary } from './score-summary.ts';
import { median } from './stats.ts';

/** Recompute-all targets of the scoring issue, ms (median of rounds). */
export const RECOMPUTE_TARGET_MS = { sqlite: 30_000, postgres: 60_000 } as const;
/** Each round recomputes as of this many days later than the one before. */
const SHIFT_DAYS = 30;

export type Backend = keyof typeof RECOMPUTE_TARGET_MS;

export interface RecomputeRound {
  round: number;
  nowIso: string;
  /** The extra last round at the same instant: nothing to write. */
  unchanged: boolean;
  wallMs: number;
  /** CPU time of the worker process (all of SQLite's work; only the client side for PostgreSQL). */
  cpuMs: number;
  vendors: number;
  updated: number;
  changes: number;
  rssMb: number;
}

export interface RecomputeResult {
  backend: Backend;
  /** Why the backend was not measured (PostgreSQL not reachable, --pg off). */
  skipped: string | null;
  /** Loading the scale dataset into the throwaway database (PostgreSQL only), s. */
  seedSeconds: number | null;
  summary: ScoreSummary | null;
  rounds: RecomputeRound[];
  unchanged: RecomputeRound | null;
  /** Stored values the unchanged re-run changed after all (should be none), with examples. */
  unstable: { count: number; examples: string[] } | null;
  medianMs: number;
  maxMs: number;
  medianCpuMs: number;
  peakRssMb: number;
  targetMs: number;
  pass: boolean;
}

const skipped = (backend: Backend, why: string): RecomputeResult => ({
  backend,
  skipped: why,
  seedSeconds: null,
  summary: null,
  rounds: [],
  unchanged: null,
  unstable: null,
  medianMs: Number.NaN,
  maxMs: Number.NaN,
  medianCpuMs: Number.NaN,
  peakRssMb: Number.NaN,
  targetMs: RECOMPUTE_TARGET_MS[backend],
  pass: true,
});

/** Runs bench/recompute-worker.ts on `databaseUrl` and collects what it prints. */
async function runWorker(opts: {
  cwd: string;
  databaseUrl: string;
  rounds: number;
  cpu: number | null;
  logFile: string;
  log: (line: string) => void;
  backend: Backend;
}): Promise<Pick<RecomputeResult, 'summary' | 'rounds' | 'unchanged' | 'peakRssMb' | 'unstable'>> {
  const { child, output } = launch(
    [
      'node',
      '--import',
      'tsx',
      'bench/recompute-worker.ts',
      opts.databaseUrl,
      String(opts.rounds),
      String(SHIFT_DAYS),
    ],
    { cpu: opts.cpu, cwd: opts.cwd, env: { ...process.env, LOG_LEVEL: 'warn' }, logFile: opts.logFile },
  );
  const rounds: RecomputeRound[] = [];
  let summary: ScoreSummary | null = null;
  let peakRssMb = Number.NaN;
  let unstable: RecomputeResult['unstable'] = null;
  let seen = 0;
  // Lines arrive as the rounds finish; report each one as it comes.
  const scan = () => {
    const lines = output().split('\n');
    for (const line of lines) {
      if (line.startsWith('BENCH_RECOMPUTE ')) {
        const r = JSON.parse(line.slice('BENCH_RECOMPUTE '.length)) as RecomputeRound;
        if (r.round < seen) continue;
        seen = r.round + 1;
        rounds.push(r);
        // SQLite works inside the worker: CPU well under wall time means it was preempted.
        const busy = r.cpuMs / r.wallMs;
        opts.log(
          `recompute ${opts.backend} ${r.unchanged ? 'unchanged re-run' : `round ${r.round + 1}`}: ` +
            `${(r.wallMs / 1000).toFixed(2)} s (worker CPU ${(r.cpuMs / 1000).toFixed(2)} s), ` +
            `${r.vendors} vendors, ${r.updated} updated, ${r.changes} score changes (as of ${r.nowIso.slice(0, 10)})` +
            (opts.backend === 'sqlite' && busy < 0.85
              ? ` — worker busy ${(busy * 100).toFixed(0)}%: disturbed by other processes`
              : ''),
        );
      } else if (line.startsWith('BENCH_SUMMARY ') && summary === null) {
        summary = JSON.parse(line.slice('BENCH_SUMMARY '.length)) as ScoreSummary;
      } else if (line.startsWith('BENCH_UNSTABLE ') && unstable === null) {
        const rest = line.slice('BENCH_UNSTABLE '.length);
        const cut = rest.lastIndexOf(' ');
        unstable = {
          count: Number(rest.slice(cut + 1)),
          examples: JSON.parse(rest.slice(0, cut)) as string[],
        };
        opts.log(
          `warning: recompute ${opts.backend}: the unchanged re-run still changed ${unstable.count} stored values ` +
            `(a repeated recompute at the same instant should write nothing), e.g. ${unstable.examples.join('; ')}`,
        );
      } else if (line.startsWith('BENCH_PEAK_RSS ')) {
        peakRssMb = Number(line.slice('BENCH_PEAK_RSS '.length));
      }
    }
  };
  const timer = setInterval(scan, 250);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    scan();
    if (code !== 0)
      throw new BenchError(`recompute worker (${opts.backend}) exited ${code}:\n${output().slice(-3000)}`);
  } finally {
    clearInterval(timer);
    if (!exited(child)) await stopChild(child);
  }
  return {
    summary,
    rounds: rounds.filter((r) => !r.unchanged),
    unchanged: rounds.find((r) => r.unchanged) ?? null,
    peakRssMb,
    unstable,
  };
}

function judged(
  backend: Backend,
  got: Pick<RecomputeResult, 'summary' | 'rounds' | 'unchanged' | 'peakRssMb' | 'unstable'>,
  seedSeconds: number | null,
): RecomputeResult {
  const wall = got.rounds.map((r) => r.wallMs);
  const medianMs = median(wall);
  const targetMs = RECOMPUTE_TARGET_MS[backend];
  return {
    backend,
    skipped: null,
    seedSeconds,
    ...got,
    medianMs,
    maxMs: Math.max(...wall),
    medianCpuMs: median(got.rounds.map((r) => r.cpuMs)),
    targetMs,
    pass: medianMs < targetMs,
  };
}

/** SQLite: recompute on a copy of the scale database (the original stays as seeded). */
export async function recomputeSqlite(opts: {
  cwd: string;
  out: string;
  scaleDbPath: string;
  rounds: number;
  cpu: number | null;
  log: (line: string) => void;
}): Promise<RecomputeResult> {
  const copy = join(opts.out, 'recompute.db');
  removeDb(copy);
  copyFileSync(opts.scaleDbPath, copy);
  if (existsSync(`${opts.scaleDbPath}-wal`)) copyFileSync(`${opts.scaleDbPath}-wal`, `${copy}-wal`);
  try {
    const got = await runWorker({
      ...opts,
      databaseUrl: `sqlite:${copy}`,
      logFile: join(opts.out, 'recompute-sqlite.log'),
      backend: 'sqlite',
    });
    return judged('sqlite', got, null);
  } finally {
    removeDb(copy);
  }
}

/** Replaces the database name (path) of a postgres:// URL. */
const withDatabase = (url: string, name: string): string => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function pgAdmin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * PostgreSQL: a throwaway database `purerank_bench_<pid>` on the server of `adminUrl`, loaded with
 * `purerank seed scale` (timed: the first thing an operator would wait for), recomputed, dropped.
 * Skipped (not failed) when the server does not answer.
 */
export async function recomputePostgres(opts: {
  cwd: string;
  out: string;
  adminUrl: string | null;
  size: ScaleSize;
  rounds: number;
  cpu: number | null;
  log: (line: string) => void;
}): Promise<RecomputeResult> {
  if (opts.adminUrl === null) return skipped('postgres', '--pg off');
  try {
    await pgAdmin(opts.adminUrl, (c) => c.query('select 1'));
  } catch (err) {
    const why = `PostgreSQL not reachable at ${redact(opts.adminUrl)} (${(err as Error).message})`;
    opts.log(`recompute postgres: skipped, ${why}`);
    return skipped('postgres', why);
  }
  const name = `purerank_bench_${process.pid}`;
  const url = withDatabase(opts.adminUrl, name);
  const drop = () =>
    pgAdmin(opts.adminUrl!, (c) => c.query(`drop database if exists ${name} with (force)`)).then(
      () => undefined,
    );
  await drop();
  await pgAdmin(opts.adminUrl, (c) => c.query(`create database ${name}`));
  const done = onInterrupt(drop);
  try {
    opts.log(
      `recompute postgres: loading ${opts.size.vendors} vendors, ${opts.size.batches} batches and ` +
        `${opts.size.reviews} reviews into ${name} (several minutes)…`,
    );
    const { seconds } = await seedScale({ cwd: opts.cwd, databaseUrl: url, size: opts.size });
    opts.log(`recompute postgres: seeded in ${seconds.toFixed(1)} s`);
    // What autovacuum does shortly after a bulk load; without statistics the planner guesses.
    const vacuumStarted = performance.now();
    await pgAdmin(url, (c) => c.query('vacuum analyze'));
    opts.log(
      `recompute postgres: vacuum analyze in ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`,
    );
    const got = await runWorker({
      ...opts,
      databaseUrl: url,
      logFile: join(opts.out, 'recompute-postgres.log'),
      backend: 'postgres',
    });
    return judged('postgres', got, seconds);
  } finally {
    await drop().catch((err: unknown) =>
      opts.log(`warning: could not drop ${name}: ${(err as Error).message} — drop it by hand`),
    );
    done();
  }
}

/** A URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

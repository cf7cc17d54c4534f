/**
 * `npm run bench`: throughput and latency of the service against a bare node:http ceiling serving
 * the same bytes, on the scale dataset, with wrk; how fast an evidence change shows in the ranking
 * (`freshness`); how long recomputing every vendor takes (`recompute`, SQLite and PostgreSQL); CoA
 * uploads per second and the list's latency while they run (`coa`); webhook deliveries per second
 * from a backlog and the list's req/s while it drains (`webhooks`).
 * See bench/README.md.
 *
 *   npm run bench -- [--duration 10] [--rounds 3] [--connections 50] [--warmup 3]
 *                    [--only NAME[,NAME…]] [--keys N] [--fresh] [--profile] [--pg URL|off] [--dir DIR]
 *
 * Exit status: 0 all targets met, 1 a target missed or the run was invalid, 2 wrk is missing.
 */

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SINGLE_THREADED_GC } from '../src/main/gc-mode.ts';
import { type CoaResult, coaRows, runCoa } from './lib/coa.ts';
import { ensureScaleDb, removeDb, type ScaleSize } from './lib/dataset.ts';
import {
  type ChangeTiming,
  FRESHNESS_TARGET_MS,
  FreshnessProbe,
  type FreshnessSummary,
  IDLE_CHANGES_PER_ROUND,
  MAX_POLLS_PER_CHANGE,
  runFreshness,
  summarize,
} from './lib/freshness.ts';
import { type KeyDemand, type KeySet, prepareKeys, primeKeys } from './lib/keys.ts';
import {
  BenchError,
  canPin,
  captureAnswer,
  installCleanup,
  type Memory,
  processName,
  readMemory,
  type Spawned,
  sampleRss,
  serviceMode,
  startBare,
  startService,
  stopChild,
} from './lib/procs.ts';
import { type RecomputeResult, recomputePostgres, recomputeSqlite } from './lib/recompute.ts';
import { MAX_RSS_MB, SCENARIOS, type Scenario, type Target, VARIANT_B_ENTERPRISE } from './lib/scenarios.ts';
import { summaryText } from './lib/score-summary.ts';
import { median } from './lib/stats.ts';
import { runWebhooks, type WebhooksResult, webhooksRows } from './lib/webhooks.ts';
import { checkRun, type Measured, runWrkMeasured, wrkAvailable } from './lib/wrk.ts';

/** Scale dataset of issue [1], with the reviews of the scoring issue. */
const SCALE: ScaleSize = { vendors: 10_000, batches: 1_000_000, reviews: 200_000 };
/** Scenarios that are not a wrk request mix (their own targets and report). */
const OTHER_SCENARIOS = ['freshness', 'recompute', 'coa', 'webhooks'] as const;
/** The list the freshness scenario loads and watches: the `vendors` scenario's request. */
const FRESHNESS_PATH = '/api/v1/vendors?limit=50';
const BEARER = { header: 'Authorization', prefix: 'Bearer ' };
/** Admin connection of the PostgreSQL recompute (a throwaway database is created through it). */
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** Issue [9]: Variant B's vendor list with the Redis limiter, at least this fraction of bare. */
const REDIS_VENDORS_MIN_RATIO = 0.6;
/** Account whose enterprise keys the bench uses. */
const ACCOUNT = 'bench';
/** At least this many keys per scope and run (issue [1]); more when the planned requests need them. */
const MIN_KEYS = 3000;
/**
 * Upper bound on the service's req/s, used to plan rate-limit budget before anything runs (a run
 * must never see a 429). Above the bare-server ceiling measured on these machines (~72k, DESIGN.md §3).
 */
const PLANNING_RPS = 80_000;
/** Idle time between runs, so one run's GC and socket teardown do not spill into the next. */
const PAUSE_MS = 1000;
const SERVER_CPU = 0;
const CLIENT_CPU = 1;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Options {
  duration: number;
  rounds: number;
  connections: number;
  warmup: number;
  fresh: boolean;
  /** Scenario names to run; null = all. */
  only: string[] | null;
  profile: boolean;
  /** Admin URL of the PostgreSQL server for `recompute`, or null (off). */
  pg: string | null;
  /** Where the bench keeps its files (default .bench). */
  dir: string;
  /**
   * At least this many keys per scope. A full run needs ~8,900 Variant B keys for its budget; a run
   * of one scenario needs fewer, so `--keys` reproduces the full run's key count (per-key memory
   * is part of what is measured).
   */
  minKeys: number;
  /**
   * `redis`: the wrk scenarios also run against a second service whose rate limits are in Redis
   * (REDIS_URL, under a prefix of its own), beside the in-memory one and the bare server, in the
   * same rounds (issue [9]).
   */
  limiter: 'memory' | 'redis';
  /** The Redis server of `--limiter redis`. */
  redisUrl: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '3' },
      fresh: { type: 'boolean', default: false },
      only: { type: 'string' },
      profile: { type: 'boolean', default: false },
      pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
      dir: { type: 'string', default: '.bench' },
      keys: { type: 'string', default: String(MIN_KEYS) },
      limiter: { type: 'string', default: 'memory' },
      redis: { type: 'string', default: process.env.BENCH_REDIS_URL ?? DEFAULT_REDIS_URL },
    },
    strict: true,
  });
  const int = (name: string, raw: string, min: number, max: number): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new BenchError(`--${name} must be a whole number in ${min}..${max}`);
    return n;
  };
  const names = [...SCENARIOS.map((s) => s.name), ...OTHER_SCENARIOS];
  const only = values.only === undefined ? null : values.only.split(',').map((x) => x.trim());
  if (only !== null && (only.length === 0 || only.some((n) => !names.includes(n)))) {
    throw new BenchError(`--only takes one or more (comma-separated) of: ${names.join(', ')}`);
  }
  const pg = values.pg.trim();
  if (pg !== 'off' && !/^postgres(ql)?:\/\//.test(pg))
    throw new BenchError('--pg must be a postgres:// URL or off');
  if (values.limiter !== 'memory' && values.limiter !== 'redis')
    throw new BenchError('--limiter takes memory or redis');
  if (!/^rediss?:\/\//.test(values.redis)) throw new BenchError('--redis must be a redis:// URL');
  return {
    duration: int('duration', values.duration, 1, 600),
    rounds: int('rounds', values.rounds, 1, 50),
    connections: int('connections', values.connections, 1, 10_000),
    warmup: int('warmup', values.warmup, 0, 60),
    fresh: values.fresh,
    only,
    profile: values.profile,
    pg: pg === 'off' ? null : pg,
    dir: isAbsolute(values.dir) ? values.dir : join(ROOT, values.dir),
    minKeys: int('keys', values.keys, 1, 200_000),
    limiter: values.limiter,
    redisUrl: values.redis,
  };
}

const log = (line: string) => process.stdout.write(`• ${line}\n`);

interface Run {
  service: Measured;
  bare: Measured;
  /** service req/s ÷ bare req/s of this round. */
  ratio: number;
  /** The Redis-limited service's run of this round (`--limiter redis`). */
  redis?: Measured;
}

/** Which server a wrk run loads. */
type LoadTarget = 'service' | 'bare' | 'redis';

interface ScenarioResult {
  name: string;
  title: string;
  paths: number;
  target: Target;
  rounds: Run[];
  /** Highest resident set of the service while this scenario ran (sampled every 50 ms), MB. */
  servicePeakRssMb: number;
  median: {
    serviceRps: number;
    bareRps: number;
    ratio: number;
    /** bare CPU µs/request ÷ service CPU µs/request. */
    cpuRatio: number;
    serviceCpuUsPerRequest: number;
    bareCpuUsPerRequest: number;
    serviceP50Ms: number;
    serviceP99Ms: number;
    bareP50Ms: number;
    bareP99Ms: number;
  };
  pass: boolean;
}

function judge(target: Target, m: ScenarioResult['median']): boolean {
  let ok = true;
  if (target.minRatio !== undefined) ok &&= m.ratio >= target.minRatio;
  if (target.maxP99Ms !== undefined) ok &&= m.serviceP99Ms <= target.maxP99Ms;
  return ok;
}

const targetText = (t: Target): string =>
  [
    t.minRatio !== undefined ? `≥${t.minRatio}×` : null,
    t.maxP99Ms !== undefined ? `p99≤${t.maxP99Ms}ms` : null,
  ]
    .filter((x) => x !== null)
    .join(', ');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r, i) => {
      const line = r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ');
      return i === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

/** What the service part of a run (wrk scenarios and freshness) produced. */
interface ServiceReport {
  mode: 'build' | 'source';
  results: ScenarioResult[];
  memory: {
    afterStartup: Memory;
    afterCapture: Memory;
    afterRuns: Memory;
    limitMb: number;
    pass: boolean;
  } | null;
  freshness: FreshnessResult | null;
  keys: Record<string, number>;
}

interface FreshnessResult {
  changes: ChangeTiming[];
  underLoad: FreshnessSummary;
  idle: FreshnessSummary;
  /** Service req/s of the runs during which changes were made (median). */
  serviceRpsDuringChanges: number;
  /** List requests of those runs that wrk gave up on after 2 s, in all. */
  timeouts: number;
  /** …and ÷ the bare server's median req/s of the `vendors` scenario, when it ran in this invocation. */
  ratioDuringChanges: number | null;
  /** Service RSS after the changes (the memory target is judged before them). */
  memoryAfter: Memory;
  targetMs: number;
  pass: boolean;
}

/** Everything that needs the service: key planning, capture, wrk scenarios, memory, freshness. */
async function runService(ctx: {
  opts: Options;
  out: string;
  scenarios: readonly Scenario[];
  freshness: boolean;
  dbPath: string;
  serverCpu: number | null;
  clientCpu: string | null;
}): Promise<ServiceReport> {
  const { opts, out, scenarios } = ctx;
  const databaseUrl = `sqlite:${ctx.dbPath}`;
  const runDbPath = join(out, 'run.db');

  // (2) Keys: enough budget for every planned request, never a 429.
  const dataset = { batches: SCALE.batches };
  const pathsOf = new Map(scenarios.map((s) => [s.name, s.paths(dataset)]));
  const runSeconds = opts.warmup + opts.rounds * opts.duration;
  const demands = new Map<string, KeyDemand>();
  const demand = (policy: Scenario['policy'], requests: number) => {
    const d = demands.get(policy.scope) ?? { policy, requests: 0 };
    d.requests += requests;
    demands.set(policy.scope, d);
  };
  // With --limiter redis every scenario loads two services; both spend from one ledger (the Redis
  // one starts with an empty count, so this over-plans its budget: safe).
  const servicesLoaded = opts.limiter === 'redis' ? 2 : 1;
  for (const s of scenarios) {
    demand(
      s.policy,
      servicesLoaded * (runSeconds * PLANNING_RPS + (opts.rounds + 1) * opts.connections) +
        pathsOf.get(s.name)!.length,
    );
  }
  // Freshness: one wrk run of the list per round, plus the polls of every change.
  const maxChanges = opts.rounds * (Math.ceil((opts.duration * 1000) / 700) + IDLE_CHANGES_PER_ROUND);
  if (ctx.freshness) {
    demand(
      VARIANT_B_ENTERPRISE,
      opts.rounds * (opts.duration * PLANNING_RPS + opts.connections) + maxChanges * MAX_POLLS_PER_CHANGE,
    );
  }
  const keySets = await prepareKeys({
    databaseUrl,
    keysFile: join(out, 'keys.txt'),
    account: ACCOUNT,
    demands: [...demands.values()],
    minKeys: opts.minKeys,
    log,
  });
  const keysFileOf = new Map<string, string>();
  for (const [scope, set] of keySets) {
    const file = join(out, `keys-active-${scope}.txt`);
    writeFileSync(file, `${set.keys.map((k) => k.key).join('\n')}\n`);
    keysFileOf.set(scope, file);
  }

  // The service runs on a copy: every run starts from the same state (dataset, keys, no rate-limit
  // history), so its memory and the key budget do not depend on earlier runs.
  removeDb(runDbPath);
  copyFileSync(ctx.dbPath, runDbPath);
  if (existsSync(`${ctx.dbPath}-wal`)) copyFileSync(`${ctx.dbPath}-wal`, `${runDbPath}-wal`);

  // (3) The service, pinned to CPU 0.
  const mode = serviceMode(ROOT);
  log(
    mode === 'build'
      ? 'the service runs the compiled build (dist/)'
      : 'note: the service runs from source through tsx (dist/ is older than src/ or missing); production ' +
          'runs the build — `npm run build` first for representative memory',
  );
  const nodeArgs = serviceNodeArgs(opts, out);
  log(`service node flags: ${nodeArgs.join(' ') || '(none)'}`);
  const service = await startService({
    cwd: ROOT,
    databaseUrl: `sqlite:${runDbPath}`,
    cpu: ctx.serverCpu,
    logFile: join(out, 'service.log'),
    nodeArgs,
  });
  if (processName(service.pid) !== 'node')
    log(`warning: pid ${service.pid} is '${processName(service.pid)}', not node`);
  const memStarted = readMemory(service.pid);
  log(`service pid ${service.pid} on :${service.port}, RSS ${memStarted.rssMb.toFixed(0)} MB after start-up`);

  let bare: Spawned | null = null;
  let limited: RedisLimited | null = null;
  try {
    if (opts.limiter === 'redis' && scenarios.length > 0) {
      limited = await startRedisLimited({ opts, out, dbPath: ctx.dbPath, serverCpu: ctx.serverCpu });
      log(
        `redis-limited service pid ${limited.service.pid} on :${limited.service.port} (${limited.prefix}*)`,
      );
    }
    // (4) Capture the service's bytes for every benchmarked URL; the bare server replays them.
    const responses: Record<string, { body: string; headers: [string, string][] }> = {};
    const primed = new Set<KeySet>();
    const pathsFileOf = new Map<string, string | null>();
    for (const s of scenarios) {
      const set = keySets.get(s.policy.scope)!;
      const paths = pathsOf.get(s.name)!;
      set.assertRoom(paths.length, `capturing ${s.name}`);
      let i = 0;
      for (const path of paths) {
        const key = set.keys[i++ % set.keys.length]!.key;
        responses[path] = await captureAnswer(service.port, path, s.auth, key, s.policy.limit);
      }
      set.spend(paths.length);
      let pathsFile: string | null = null;
      if (paths.length > 1) {
        pathsFile = join(out, `paths-${s.name}.txt`);
        writeFileSync(pathsFile, `${paths.join('\n')}\n`);
      }
      pathsFileOf.set(s.name, pathsFile);
    }
    // Every key once before any measurement: the service resolves a key from the store on its first
    // use and from memory afterwards, and the runs must measure the steady state.
    const toPrime: { policy: Scenario['policy']; path: string; auth: Scenario['auth'] }[] = scenarios.map(
      (s) => ({
        policy: s.policy,
        path: pathsOf.get(s.name)![0]!,
        auth: s.auth,
      }),
    );
    if (ctx.freshness) toPrime.push({ policy: VARIANT_B_ENTERPRISE, path: FRESHNESS_PATH, auth: BEARER });
    for (const p of toPrime) {
      const set = keySets.get(p.policy.scope)!;
      if (primed.has(set)) continue;
      primed.add(set);
      set.assertRoom(set.keys.length, `priming keys of scope ${p.policy.scope}`);
      await primeKeys(service, set, p.path, p.auth);
      set.spend(set.keys.length);
      if (limited) {
        set.assertRoom(set.keys.length, `priming keys of scope ${p.policy.scope} (redis)`);
        await primeKeys(limited.service, set, p.path, p.auth);
        set.spend(set.keys.length);
      }
      log(`primed ${set.keys.length} keys (scope ${p.policy.scope})`);
    }
    const memLoaded = readMemory(service.pid);
    if (scenarios.length > 0) {
      const responsesFile = join(out, 'responses.json');
      writeFileSync(responsesFile, JSON.stringify(responses));
      log(
        `captured ${Object.keys(responses).length} responses; service RSS ${memLoaded.rssMb.toFixed(0)} MB`,
      );
      bare = await startBare({
        cwd: ROOT,
        responsesFile,
        cpu: ctx.serverCpu,
        logFile: join(out, 'bare.log'),
      });
      for (const path of Object.keys(responses).slice(0, 3)) {
        const got = Buffer.from(await (await fetch(`http://127.0.0.1:${bare.port}${path}`)).arrayBuffer());
        if (got.toString('base64') !== responses[path]!.body)
          throw new BenchError(`bare server answers ${path} with other bytes`);
      }
      log(`bare server pid ${bare.pid} on :${bare.port}`);
    }

    /** One wrk run against one server, with its CPU cost, checked and entered in the key ledger. */
    const load = async (
      target: LoadTarget,
      seconds: number,
      label: string,
      run: { path: string; policy: Scenario['policy']; auth: Scenario['auth']; pathsFile: string | null },
    ): Promise<Measured> => {
      const server = target === 'service' ? service : target === 'redis' ? limited!.service : bare!;
      const set = keySets.get(run.policy.scope)!;
      const counted = target !== 'bare';
      if (counted) set.assertRoom(seconds * PLANNING_RPS + opts.connections, label);
      const r = await runWrkMeasured(
        {
          connections: opts.connections,
          keysFile: keysFileOf.get(run.policy.scope)!,
          pathsFile: run.pathsFile,
          auth: run.auth,
          cpu: ctx.clientCpu,
          url: `http://127.0.0.1:${server.port}${run.path}`,
          seconds,
        },
        server.pid,
      );
      if (counted) {
        // Requests still in flight when wrk stops may have been counted too.
        set.spend(r.requests + opts.connections);
        if (r.rps > PLANNING_RPS) log(`warning: ${Math.round(r.rps)} req/s is above PLANNING_RPS; raise it`);
      }
      const freshnessRun = label.startsWith('freshness');
      checkRun(`${label} (${target})`, r, server, log, freshnessRun);
      if (freshnessRun && r.errors.timeout > 0) {
        log(`note: ${label}: ${r.errors.timeout} list requests took over 2 s (wrk timeouts)`);
      }
      if (r.busy < 0.85 && !label.includes('warm-up') && !freshnessRun) {
        log(`note: ${label} (${target}): server busy ${(r.busy * 100).toFixed(0)}% of the run — disturbed`);
      }
      await sleep(PAUSE_MS);
      return r;
    };

    // (5) Load both with the same wrk invocation, alternating which goes first.
    const results: ScenarioResult[] = [];
    for (const s of scenarios) {
      const paths = pathsOf.get(s.name)!;
      const run = { path: paths[0]!, policy: s.policy, auth: s.auth, pathsFile: pathsFileOf.get(s.name)! };
      const rss = sampleRss(service.pid);
      const targets: LoadTarget[] = limited ? ['service', 'bare', 'redis'] : ['service', 'bare'];
      if (opts.warmup > 0) {
        log(`${s.name}: warm-up ${opts.warmup} s each`);
        for (const t of targets) await load(t, opts.warmup, `${s.name} warm-up`, run);
      }
      const rounds: Run[] = [];
      for (let r = 0; r < opts.rounds; r++) {
        // Which goes first rotates: none is always measured right after another's load.
        const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
        const got: Partial<Record<LoadTarget, Measured>> = {};
        for (const t of order) got[t] = await load(t, opts.duration, `${s.name} round ${r + 1}`, run);
        const one: Run = { service: got.service!, bare: got.bare!, ratio: got.service!.rps / got.bare!.rps };
        if (got.redis) one.redis = got.redis;
        rounds.push(one);
        if (got.redis) {
          log(
            `${s.name} round ${r + 1}/${opts.rounds} (redis limiter): ${Math.round(got.redis.rps)} req/s ` +
              `(p99 ${(got.redis.latencyUs.p99 / 1000).toFixed(2)} ms), ratio ${(got.redis.rps / got.bare!.rps).toFixed(3)}; ` +
              `CPU/req ${got.redis.cpuUsPerRequest.toFixed(1)} µs (busy ${(got.redis.busy * 100).toFixed(0)}%)`,
          );
        }
        log(
          `${s.name} round ${r + 1}/${opts.rounds}: service ${Math.round(one.service.rps)} req/s ` +
            `(p99 ${(one.service.latencyUs.p99 / 1000).toFixed(2)} ms), bare ${Math.round(one.bare.rps)} req/s, ` +
            `ratio ${one.ratio.toFixed(3)}; CPU/req ${one.service.cpuUsPerRequest.toFixed(1)} vs ` +
            `${one.bare.cpuUsPerRequest.toFixed(1)} µs (busy ${(one.service.busy * 100).toFixed(0)}% / ` +
            `${(one.bare.busy * 100).toFixed(0)}%)`,
        );
      }
      const m = medians(rounds);
      const servicePeakRssMb = rss.stop();
      log(`${s.name}: service RSS peak ${servicePeakRssMb.toFixed(0)} MB during the scenario`);
      results.push({
        name: s.name,
        title: s.title,
        paths: paths.length,
        target: s.target,
        rounds,
        servicePeakRssMb,
        median: m,
        pass: judge(s.target, m),
      });
      if (limited) {
        // The same rounds with the Redis-limited service in the service's place.
        const redisRounds: Run[] = rounds.map((x) => ({
          service: x.redis!,
          bare: x.bare,
          ratio: x.redis!.rps / x.bare.rps,
        }));
        const rm = medians(redisRounds);
        const target: Target = s.name === 'vendors' ? { minRatio: REDIS_VENDORS_MIN_RATIO } : {};
        results.push({
          name: `${s.name} +redis`,
          title: `${s.title} (rate limits in Redis)`,
          paths: paths.length,
          target,
          rounds: redisRounds,
          servicePeakRssMb: Number.NaN,
          median: rm,
          pass: judge(target, rm),
        });
      }
    }

    // (6) Memory after the load runs (before freshness changes the data).
    const memAfter = readMemory(service.pid);
    const memory =
      scenarios.length === 0
        ? null
        : {
            afterStartup: memStarted,
            afterCapture: memLoaded,
            afterRuns: memAfter,
            limitMb: MAX_RSS_MB,
            // The peak is what the machine must have: judge on VmHWM, the highest RSS the process ever had.
            pass: memAfter.hwmMb < MAX_RSS_MB,
          };
    if (bare) {
      await stopChild(bare.child);
      bare = null;
    }
    if (limited) {
      await limited.stop();
      limited = null;
    }

    // (7) Freshness: evidence changes from another process while (and between) wrk loads the list.
    let freshness: FreshnessResult | null = null;
    if (ctx.freshness) {
      const set = keySets.get(VARIANT_B_ENTERPRISE.scope)!;
      const probe = await FreshnessProbe.open({
        databaseUrl: `sqlite:${runDbPath}`,
        port: service.port,
        path: FRESHNESS_PATH,
        keys: set,
        auth: BEARER,
      });
      set.assertRoom(maxChanges * MAX_POLLS_PER_CHANGE, 'freshness polls');
      const listRun = { path: FRESHNESS_PATH, policy: VARIANT_B_ENTERPRISE, auth: BEARER, pathsFile: null };
      let got: { changes: ChangeTiming[]; runs: Measured[] };
      try {
        if (opts.warmup > 0) await load('service', opts.warmup, 'freshness warm-up', listRun);
        got = await runFreshness({
          probe,
          rounds: opts.rounds,
          duration: opts.duration,
          loadRun: (r) => load('service', opts.duration, `freshness round ${r + 1}`, listRun),
          log,
        });
      } finally {
        set.spend(probe.requests);
        await probe.close();
      }
      if (probe.busyCodes.size > 0) {
        log(
          `warning: freshness: imports were refused with ${[...probe.busyCodes].join(', ')} while the service ` +
            'ran (and retried): a write transaction that reads before it takes the write lock cannot commit once ' +
            'another connection has (SQLITE_BUSY_SNAPSHOT); the store should lock first (lockForWrite)',
        );
      }
      const underLoad = summarize(got.changes.filter((c) => c.underLoad));
      const idle = summarize(got.changes.filter((c) => !c.underLoad));
      const rps = median(got.runs.map((r) => r.rps));
      const vendors = results.find((r) => r.name === 'vendors');
      freshness = {
        changes: got.changes,
        underLoad,
        idle,
        serviceRpsDuringChanges: rps,
        timeouts: got.runs.reduce((n, r) => n + r.errors.timeout, 0),
        ratioDuringChanges: vendors ? rps / vendors.median.bareRps : null,
        memoryAfter: readMemory(service.pid),
        targetMs: FRESHNESS_TARGET_MS,
        pass: underLoad.missed === 0 && idle.missed === 0 && underLoad.medianMs <= FRESHNESS_TARGET_MS,
      };
    }
    return {
      mode,
      results,
      memory,
      freshness,
      keys: Object.fromEntries(
        [...keySets].map(([scope, set]: [string, KeySet]) => [scope, set.keys.length]),
      ),
    };
  } finally {
    if (bare) await stopChild(bare.child);
    if (limited) await limited.stop();
    await stopChild(service.child);
  }
}

/** Per-scenario medians over rounds (service = whichever service the rounds name). */
function medians(rounds: readonly Run[]): ScenarioResult['median'] {
  return {
    serviceRps: median(rounds.map((x) => x.service.rps)),
    bareRps: median(rounds.map((x) => x.bare.rps)),
    ratio: median(rounds.map((x) => x.ratio)),
    cpuRatio: median(rounds.map((x) => x.bare.cpuUsPerRequest / x.service.cpuUsPerRequest)),
    serviceCpuUsPerRequest: median(rounds.map((x) => x.service.cpuUsPerRequest)),
    bareCpuUsPerRequest: median(rounds.map((x) => x.bare.cpuUsPerRequest)),
    serviceP50Ms: median(rounds.map((x) => x.service.latencyUs.p50)) / 1000,
    serviceP99Ms: median(rounds.map((x) => x.service.latencyUs.p99)) / 1000,
    bareP50Ms: median(rounds.map((x) => x.bare.latencyUs.p50)) / 1000,
    bareP99Ms: median(rounds.map((x) => x.bare.latencyUs.p99)) / 1000,
  };
}

interface RedisLimited {
  service: Spawned;
  prefix: string;
  stop(): Promise<void>;
}

/**
 * The second service of `--limiter redis`: the same build, dataset copy and settings, with its rate
 * limits in Redis under a prefix of its own (deleted afterwards), pinned like the first.
 */
async function startRedisLimited(ctx: {
  opts: Options;
  out: string;
  dbPath: string;
  serverCpu: number | null;
}): Promise<RedisLimited> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(ctx.opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new BenchError(`--limiter redis: Redis at ${ctx.opts.redisUrl} does not answer (${String(err)})`);
  }
  const prefix = `purerank:bench:${process.pid}:${Date.now().toString(36)}:`;
  const dbPath = join(ctx.out, 'run-redis.db');
  removeDb(dbPath);
  copyFileSync(ctx.dbPath, dbPath);
  if (existsSync(`${ctx.dbPath}-wal`)) copyFileSync(`${ctx.dbPath}-wal`, `${dbPath}-wal`);
  const service = await startService({
    cwd: ROOT,
    databaseUrl: `sqlite:${dbPath}`,
    cpu: ctx.serverCpu,
    logFile: join(ctx.out, 'service-redis.log'),
    nodeArgs: serviceNodeArgs(ctx.opts, ctx.out),
    env: { REDIS_URL: ctx.opts.redisUrl, REDIS_PREFIX: prefix },
  });
  return {
    service,
    prefix,
    async stop() {
      await stopChild(service.child);
      // The run's keys: a SCAN over the prefix, deleted in pages.
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
      removeDb(dbPath);
    },
  };
}

/**
 * Node flags of the service: `npm start`'s own (--single-threaded-gc, decision 0026; BENCH_PARALLEL_GC=1
 * leaves it out, to compare), --profile's, and BENCH_SERVICE_NODE_ARGS (diagnostics, e.g. --trace-gc).
 */
function serviceNodeArgs(opts: Options, out: string): string[] {
  const nodeArgs = process.env.BENCH_PARALLEL_GC === '1' ? [] : [SINGLE_THREADED_GC];
  if (opts.profile) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${join(out, 'profiles')}`);
  nodeArgs.push(...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean));
  return nodeArgs;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  const wanted = (name: string) => opts.only === null || opts.only.includes(name);
  const scenarios = SCENARIOS.filter((s) => wanted(s.name));
  const freshness = wanted('freshness');
  const recompute = wanted('recompute');
  const coa = wanted('coa');
  const webhooks = wanted('webhooks');
  const needService = scenarios.length > 0 || freshness;
  if ((needService || webhooks) && !wrkAvailable()) {
    process.stderr.write('bench needs wrk: apt-get install wrk\n');
    return 2;
  }
  installCleanup();
  const out = opts.dir;
  mkdirSync(out, { recursive: true });
  const pinned = cpus().length >= 2 && canPin(SERVER_CPU) && canPin(CLIENT_CPU);
  if (!pinned) log('warning: cannot pin to CPUs 0 and 1 (taskset missing or < 2 CPUs); running unpinned');
  const serverCpu = pinned ? SERVER_CPU : null;
  const clientCpu = pinned ? String(CLIENT_CPU) : null;
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();

  // (0) The service runs from the compiled build, as in production (decision 0002). The recompute
  // worker runs the store code from source (the work is in the database driver either way).
  if (needService || coa || webhooks) {
    log('building dist/ (npm run build)');
    const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }

  // (1) The scale dataset.
  const dbPath = join(out, 'scale.db');
  const ds = await ensureScaleDb({ cwd: ROOT, dbPath, size: SCALE, fresh: opts.fresh, log });
  log(
    `scale dataset ${ds} (${SCALE.vendors} vendors, ${SCALE.batches} batches, ${SCALE.reviews} reviews): ${dbPath}`,
  );

  const service = needService
    ? await runService({ opts, out, scenarios, freshness, dbPath, serverCpu, clientCpu })
    : null;

  // (7b) CoA uploads: a service of its own (unpinned; see bench/lib/coa.ts), after the others.
  const coaResult: CoaResult | null = coa
    ? await runCoa({
        cwd: ROOT,
        out,
        scaleDbPath: dbPath,
        rounds: opts.rounds,
        duration: opts.duration,
        warmup: opts.warmup,
        nodeArgs: serviceNodeArgs(opts, out),
      })
    : null;

  // (7c) Webhooks: a backlog drained by the service's worker, the list under wrk meanwhile.
  const webhooksResult: WebhooksResult | null = webhooks
    ? await runWebhooks({
        cwd: ROOT,
        out,
        scaleDbPath: dbPath,
        duration: opts.duration,
        warmup: opts.warmup,
        connections: opts.connections,
        minKeys: opts.minKeys,
        planningRps: PLANNING_RPS,
        serverCpu,
        clientCpu,
        nodeArgs: serviceNodeArgs(opts, out),
      })
    : null;

  // (8) Recompute every vendor: SQLite (a copy of the scale database), then PostgreSQL.
  const recomputes: RecomputeResult[] = [];
  if (recompute) {
    const common = { cwd: ROOT, out, rounds: opts.rounds, cpu: serverCpu, log };
    recomputes.push(await recomputeSqlite({ ...common, scaleDbPath: dbPath }));
    recomputes.push(await recomputePostgres({ ...common, adminUrl: opts.pg, size: SCALE }));
    const summary = recomputes.find((r) => r.summary)?.summary;
    if (summary) log(`scale dataset scores: ${summaryText(summary)}`);
  }

  // (9) Report.
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const f2 = (n: number) => n.toFixed(2);
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
  let text = '';
  if (service && (service.results.length > 0 || service.memory)) {
    const rows = [
      [
        'scenario',
        'service req/s',
        'bare req/s',
        'ratio',
        'svc p50 ms',
        'svc p99 ms',
        'bare p50 ms',
        'bare p99 ms',
        'CPU µs/req svc/bare',
        'CPU ratio',
        'target',
        'result',
      ],
      ...service.results.map((r) => [
        r.name,
        f0(r.median.serviceRps),
        f0(r.median.bareRps),
        r.median.ratio.toFixed(3),
        f2(r.median.serviceP50Ms),
        f2(r.median.serviceP99Ms),
        f2(r.median.bareP50Ms),
        f2(r.median.bareP99Ms),
        `${r.median.serviceCpuUsPerRequest.toFixed(1)} / ${r.median.bareCpuUsPerRequest.toFixed(1)}`,
        r.median.cpuRatio.toFixed(3),
        targetText(r.target),
        verdict(r.pass),
      ]),
    ];
    const m = service.memory;
    if (m) {
      rows.push([
        'service RSS',
        `${m.afterRuns.rssMb.toFixed(0)} MB`,
        '',
        '',
        '',
        '',
        '',
        `peak ${m.afterRuns.hwmMb.toFixed(0)} MB`,
        '',
        '',
        `<${MAX_RSS_MB} MB`,
        verdict(m.pass),
      ]);
    }
    const mem = (x: Memory) => `${x.rssMb.toFixed(0)} MB (peak ${x.hwmMb.toFixed(0)})`;
    text +=
      `\nMedian of ${opts.rounds} rounds × ${opts.duration} s, ${opts.connections} connections, ` +
      `${pinned ? 'server on CPU 0, wrk on CPU 1' : 'unpinned'}; ratio = median of per-round service/bare req/s;\nCPU ratio = bare ÷ service CPU time per request (less disturbed by other load).\n\n` +
      `${table(rows)}\n`;
    if (m) {
      text +=
        `\nService (${service.mode === 'build' ? 'compiled build' : 'source via tsx'}) RSS: after start-up ${mem(m.afterStartup)}, ` +
        `after capture ${mem(m.afterCapture)}, after runs ${mem(m.afterRuns)}.\n`;
    }
  }
  const other: string[][] = [];
  const fr = service?.freshness ?? null;
  if (fr) {
    const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—');
    const row = (label: string, s: FreshnessSummary, judged: boolean) => [
      label,
      ms(s.medianMs),
      `p90 ${ms(s.p90Ms)}, max ${ms(s.maxMs)}`,
      `${s.n} changes${s.missed ? `, ${s.missed} never shown` : ''}; import ${ms(s.medianApplyMs)}` +
        `${s.busyRetries ? `, ${s.busyRetries} refused as busy (retried)` : ''}`,
      judged ? `median ≤${fr.targetMs} ms` : '(info)',
      judged ? verdict(fr.pass) : s.missed ? 'FAIL' : '',
    ];
    other.push(row('freshness (under load)', fr.underLoad, true));
    other.push(row('freshness (idle)', fr.idle, false));
    other.push([
      'list during changes',
      `${f0(fr.serviceRpsDuringChanges)} req/s`,
      fr.ratioDuringChanges === null ? '' : `${fr.ratioDuringChanges.toFixed(3)} × bare`,
      `${fr.timeouts} requests over 2 s; between changes: see vendors` +
        `${service?.results.some((r) => r.name === 'vendors') ? '' : ' (not run)'}`,
      '(info)',
      '',
    ]);
  }
  if (coaResult) other.push(...coaRows(coaResult));
  if (webhooksResult) other.push(...webhooksRows(webhooksResult));
  for (const r of recomputes) {
    const s = (n: number) => `${(n / 1000).toFixed(2)} s`;
    if (r.skipped) {
      other.push([`recompute ${r.backend}`, 'skipped', '', r.skipped, `<${r.targetMs / 1000} s`, 'SKIP']);
      continue;
    }
    const upd = r.rounds.map((x) => x.updated);
    other.push([
      `recompute ${r.backend}`,
      s(r.medianMs),
      `max ${s(r.maxMs)}, worker CPU ${s(r.medianCpuMs)}`,
      `${r.rounds[0]?.vendors ?? 0} vendors, ${Math.min(...upd)}–${Math.max(...upd)} updated; unchanged re-run ` +
        `${r.unchanged ? s(r.unchanged.wallMs) : '—'}` +
        `${r.unstable ? ` (yet changed ${r.unstable.count} values)` : ''}` +
        `${r.seedSeconds !== null ? `; seed ${r.seedSeconds.toFixed(0)} s` : ''}`,
      `median <${r.targetMs / 1000} s`,
      verdict(r.pass),
    ]);
  }
  if (other.length > 0) {
    text += `\nMedians over ${opts.rounds} rounds (freshness: over all changes of a kind).\n\n${table([
      ['scenario', 'median', 'spread', 'detail', 'target', 'result'],
      ...other,
    ])}\n`;
  }
  text +=
    `\nLoad average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, ` +
    `after ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (other work on this machine skews results).\n`;
  process.stdout.write(text);

  const pass =
    (service?.results ?? []).every((r) => r.pass) &&
    (service?.memory?.pass ?? true) &&
    (fr?.pass ?? true) &&
    recomputes.every((r) => r.pass) &&
    (coaResult ? Object.values(coaResult.pass).every(Boolean) : true) &&
    (webhooksResult ? Object.values(webhooksResult.pass).every(Boolean) : true);
  const report = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      node: process.version,
      loadBefore,
      loadAfter: loadavg(),
    },
    options: {
      ...opts,
      pg: opts.pg === null ? null : 'set',
      pinned,
      planningRps: PLANNING_RPS,
      scale: SCALE,
      serviceMode: service?.mode ?? null,
    },
    keys: service?.keys ?? {},
    scenarios: service?.results ?? [],
    memory: service?.memory ?? null,
    freshness: fr,
    recompute: recomputes,
    coa: coaResult,
    webhooks: webhooksResult,
    pass,
  };
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${join(out, 'results.json')}`);
  return pass ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof BenchError) process.stderr.write(`\nbench: ${err.message}\n`);
    else
      process.stderr.write(`\nbench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);

import { spawnSync } from 'node:child_process';
/**
 * `npm run bench`: throughput and latency of the service against a bare node:http ceiling serving
 * the same bytes, on the scale dataset, with wrk. See bench/README.md.
 *
 *   npm run bench -- [--duration 10] [--rounds 3] [--connections 50] [--warmup 3]
 *                    [--only vendors|batches] [--fresh] [--profile]
 *
 * Exit status: 0 all targets met, 1 a target missed or the run was invalid, 2 wrk is missing.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureScaleDb } from './lib/dataset.ts';
import { type KeyDemand, type KeySet, prepareKeys } from './lib/keys.ts';
import {
  BenchError,
  canPin,
  cpuTimeMs,
  installCleanup,
  type Memory,
  processName,
  readMemory,
  type Spawned,
  serviceMode,
  startBare,
  startService,
  stopChild,
} from './lib/procs.ts';
import { MAX_RSS_MB, SCENARIOS, type Target } from './lib/scenarios.ts';
import { median } from './lib/stats.ts';
import { runWrk, type WrkResult, wrkAvailable } from './lib/wrk.ts';

/** Scale dataset of issue [1]. */
const SCALE = { vendors: 10_000, batches: 1_000_000 };
/** Account whose enterprise keys the bench uses. */
const ACCOUNT = 'bench';
/** At least this many keys per run (issue [1]); more when the planned requests need them. */
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
const OUT = join(ROOT, '.bench');

interface Options {
  duration: number;
  rounds: number;
  connections: number;
  warmup: number;
  fresh: boolean;
  only: string | null;
  profile: boolean;
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
    },
    strict: true,
  });
  const int = (name: string, raw: string, min: number, max: number): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new BenchError(`--${name} must be a whole number in ${min}..${max}`);
    return n;
  };
  const only = values.only ?? null;
  if (only !== null && !SCENARIOS.some((s) => s.name === only)) {
    throw new BenchError(`--only must be one of: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  }
  return {
    duration: int('duration', values.duration, 1, 600),
    rounds: int('rounds', values.rounds, 1, 50),
    connections: int('connections', values.connections, 1, 10_000),
    warmup: int('warmup', values.warmup, 0, 60),
    fresh: values.fresh,
    only,
    profile: values.profile,
  };
}

const log = (line: string) => process.stdout.write(`• ${line}\n`);

/** A wrk result plus what the server process spent on it. */
interface Measured extends WrkResult {
  /** CPU time (user + system, all threads) of the server process during the run. */
  cpuMs: number;
  /** Server CPU per request, µs: a cross-check of the req/s ratio that preemption disturbs less. */
  cpuUsPerRequest: number;
  /** Server CPU time ÷ wall time: below ~0.9 the server was not saturated (preempted or starved of load). */
  busy: number;
}

interface Run {
  service: Measured;
  bare: Measured;
  /** service req/s ÷ bare req/s of this round. */
  ratio: number;
}

interface ScenarioResult {
  name: string;
  title: string;
  paths: number;
  target: Target;
  rounds: Run[];
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

/** Any service answer other than 2xx/304 (wrk counts status ≥ 400) or a timeout invalidates a run. */
function checkRun(what: string, r: WrkResult, server: Spawned): void {
  const e = r.errors;
  if (e.status > 0 || e.timeout > 0 || e.connect > 0) {
    throw new BenchError(
      `${what}: ${e.status} responses ≥ 400, ${e.timeout} timeouts, ${e.connect} connect errors in ` +
        `${r.requests} requests — measuring errors is worthless. A 429 means the key budget was ` +
        `miscounted (delete .bench/keys.txt); anything else, see .bench/*.log.\n${server.output().slice(-2000)}`,
    );
  }
  if (e.read > 0 || e.write > 0) log(`warning: ${what}: ${e.read} read and ${e.write} write socket errors`);
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

/** One request per key, `parallel` at a time; every answer must be 200. */
async function primeKeys(
  service: Spawned,
  set: KeySet,
  path: string,
  auth: { header: string; prefix: string },
  parallel = 32,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < set.keys.length) {
      const key = set.keys[next++]!.key;
      const res = await fetch(`http://127.0.0.1:${service.port}${path}`, {
        headers: { [auth.header]: auth.prefix + key },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new BenchError(`priming key ${key.slice(0, 13)}…: HTTP ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

async function main(): Promise<number> {
  if (!wrkAvailable()) {
    process.stderr.write('bench needs wrk: apt-get install wrk\n');
    return 2;
  }
  const opts = parseOptions(process.argv.slice(2));
  installCleanup();
  mkdirSync(OUT, { recursive: true });
  const scenarios = SCENARIOS.filter((s) => opts.only === null || s.name === opts.only);
  const pinned = cpus().length >= 2 && canPin(SERVER_CPU) && canPin(CLIENT_CPU);
  if (!pinned) log('warning: cannot pin to CPUs 0 and 1 (taskset missing or < 2 CPUs); running unpinned');
  const serverCpu = pinned ? SERVER_CPU : null;
  const clientCpu = pinned ? String(CLIENT_CPU) : null;
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();

  // (0) The service runs from the compiled build, as in production (decision 0002).
  log('building dist/ (npm run build)');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');

  // (1) The scale dataset.
  const dbPath = join(OUT, 'scale.db');
  const databaseUrl = `sqlite:${dbPath}`;
  const runDbPath = join(OUT, 'run.db');
  const ds = await ensureScaleDb({ cwd: ROOT, dbPath, size: SCALE, fresh: opts.fresh, log });
  log(`scale dataset ${ds} (${SCALE.vendors} vendors, ${SCALE.batches} batches): ${dbPath}`);

  // (2) Keys: enough budget for every planned request, never a 429.
  const ctx = { batches: SCALE.batches };
  const pathsOf = new Map(scenarios.map((s) => [s.name, s.paths(ctx)]));
  const runSeconds = opts.warmup + opts.rounds * opts.duration;
  const demands = new Map<string, KeyDemand>();
  for (const s of scenarios) {
    const d = demands.get(s.policy.scope) ?? { policy: s.policy, requests: 0 };
    d.requests +=
      runSeconds * PLANNING_RPS + (opts.rounds + 1) * opts.connections + pathsOf.get(s.name)!.length;
    demands.set(s.policy.scope, d);
  }
  const keySets = await prepareKeys({
    databaseUrl,
    keysFile: join(OUT, 'keys.txt'),
    account: ACCOUNT,
    demands: [...demands.values()],
    minKeys: MIN_KEYS,
    log,
  });
  const keysFileOf = new Map<string, string>();
  for (const [scope, set] of keySets) {
    const file = join(OUT, `keys-active-${scope}.txt`);
    writeFileSync(file, `${set.keys.map((k) => k.key).join('\n')}\n`);
    keysFileOf.set(scope, file);
  }

  // The service runs on a copy: every run starts from the same state (dataset, keys, no rate-limit
  // history), so its memory and the key budget do not depend on earlier runs.
  for (const suffix of ['', '-wal', '-shm']) rmSync(runDbPath + suffix, { force: true });
  copyFileSync(dbPath, runDbPath);
  if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${runDbPath}-wal`);

  // (3) The service, pinned to CPU 0.
  const mode = serviceMode(ROOT);
  log(
    mode === 'build'
      ? 'the service runs the compiled build (dist/)'
      : 'note: the service runs from source through tsx (dist/ is older than src/ or missing); production ' +
          'runs the build — `npm run build` first for representative memory',
  );
  const nodeArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(OUT, 'profiles')}`] : [];
  const service = await startService({
    cwd: ROOT,
    databaseUrl: `sqlite:${runDbPath}`,
    cpu: serverCpu,
    logFile: join(OUT, 'service.log'),
    nodeArgs,
  });
  if (processName(service.pid) !== 'node')
    log(`warning: pid ${service.pid} is '${processName(service.pid)}', not node`);
  const memStarted = readMemory(service.pid);
  log(`service pid ${service.pid} on :${service.port}, RSS ${memStarted.rssMb.toFixed(0)} MB after start-up`);

  let bare: Spawned | null = null;
  try {
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
        const res = await fetch(`http://127.0.0.1:${service.port}${path}`, {
          headers: { [s.auth.header]: s.auth.prefix + key },
        });
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200)
          throw new BenchError(`capture ${path}: HTTP ${res.status} ${body.toString().slice(0, 300)}`);
        const limit = res.headers.get('x-ratelimit-limit');
        if (limit !== null && Number(limit) !== s.policy.limit) {
          throw new BenchError(
            `the service enforces ${limit} requests per window, the bench plans for ${s.policy.limit}`,
          );
        }
        // The ceiling answers with the same bytes: body and headers (values frozen at capture).
        const headers: [string, string][] = [];
        res.headers.forEach((value, name) => {
          if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
            headers.push([name, value]);
        });
        responses[path] = { body: body.toString('base64'), headers };
      }
      set.spend(paths.length);
      let pathsFile: string | null = null;
      if (paths.length > 1) {
        pathsFile = join(OUT, `paths-${s.name}.txt`);
        writeFileSync(pathsFile, `${paths.join('\n')}\n`);
      }
      pathsFileOf.set(s.name, pathsFile);
    }
    // Every key once before any measurement: the service resolves a key from the store on its first
    // use and from memory afterwards, and the runs must measure the steady state.
    for (const s of scenarios) {
      const set = keySets.get(s.policy.scope)!;
      if (primed.has(set)) continue;
      primed.add(set);
      set.assertRoom(set.keys.length, `priming keys of scope ${s.policy.scope}`);
      await primeKeys(service, set, pathsOf.get(s.name)![0]!, s.auth);
      set.spend(set.keys.length);
      log(`primed ${set.keys.length} keys (scope ${s.policy.scope})`);
    }
    const responsesFile = join(OUT, 'responses.json');
    writeFileSync(responsesFile, JSON.stringify(responses));
    const memLoaded = readMemory(service.pid);
    log(`captured ${Object.keys(responses).length} responses; service RSS ${memLoaded.rssMb.toFixed(0)} MB`);

    bare = await startBare({ cwd: ROOT, responsesFile, cpu: serverCpu, logFile: join(OUT, 'bare.log') });
    for (const path of Object.keys(responses).slice(0, 3)) {
      const got = Buffer.from(await (await fetch(`http://127.0.0.1:${bare.port}${path}`)).arrayBuffer());
      if (got.toString('base64') !== responses[path]!.body)
        throw new BenchError(`bare server answers ${path} with other bytes`);
    }
    log(`bare server pid ${bare.pid} on :${bare.port}`);

    // (5) Load both with the same wrk invocation, alternating which goes first.
    const results: ScenarioResult[] = [];
    for (const s of scenarios) {
      const set = keySets.get(s.policy.scope)!;
      const paths = pathsOf.get(s.name)!;
      const common = {
        connections: opts.connections,
        keysFile: keysFileOf.get(s.policy.scope)!,
        pathsFile: pathsFileOf.get(s.name)!,
        auth: s.auth,
        cpu: clientCpu,
      };
      const load = async (target: 'service' | 'bare', seconds: number, label: string): Promise<Measured> => {
        const server = target === 'service' ? service : bare!;
        if (target === 'service') set.assertRoom(seconds * PLANNING_RPS + opts.connections, label);
        const cpu0 = cpuTimeMs(server.pid);
        const w = await runWrk({ ...common, url: `http://127.0.0.1:${server.port}${paths[0]}`, seconds });
        const cpuMs = cpuTimeMs(server.pid) - cpu0;
        const r: Measured = {
          ...w,
          cpuMs,
          cpuUsPerRequest: (cpuMs * 1000) / Math.max(1, w.requests),
          busy: cpuMs / (w.durationUs / 1000),
        };
        if (target === 'service') {
          // Requests still in flight when wrk stops may have been counted too.
          set.spend(r.requests + opts.connections);
          if (r.rps > PLANNING_RPS)
            log(`warning: ${Math.round(r.rps)} req/s is above PLANNING_RPS; raise it`);
        }
        checkRun(`${label} (${target})`, r, server);
        if (r.busy < 0.85 && !label.includes('warm-up')) {
          log(`note: ${label} (${target}): server busy ${(r.busy * 100).toFixed(0)}% of the run — disturbed`);
        }
        await sleep(PAUSE_MS);
        return r;
      };
      if (opts.warmup > 0) {
        log(`${s.name}: warm-up ${opts.warmup} s each`);
        await load('service', opts.warmup, `${s.name} warm-up`);
        await load('bare', opts.warmup, `${s.name} warm-up`);
      }
      const rounds: Run[] = [];
      for (let r = 0; r < opts.rounds; r++) {
        const order: ('service' | 'bare')[] = r % 2 === 0 ? ['service', 'bare'] : ['bare', 'service'];
        const got: Partial<Record<'service' | 'bare', Measured>> = {};
        for (const t of order) got[t] = await load(t, opts.duration, `${s.name} round ${r + 1}`);
        const run = { service: got.service!, bare: got.bare!, ratio: got.service!.rps / got.bare!.rps };
        rounds.push(run);
        log(
          `${s.name} round ${r + 1}/${opts.rounds}: service ${Math.round(run.service.rps)} req/s ` +
            `(p99 ${(run.service.latencyUs.p99 / 1000).toFixed(2)} ms), bare ${Math.round(run.bare.rps)} req/s, ` +
            `ratio ${run.ratio.toFixed(3)}; CPU/req ${run.service.cpuUsPerRequest.toFixed(1)} vs ` +
            `${run.bare.cpuUsPerRequest.toFixed(1)} µs (busy ${(run.service.busy * 100).toFixed(0)}% / ` +
            `${(run.bare.busy * 100).toFixed(0)}%)`,
        );
      }
      const m = {
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
      results.push({
        name: s.name,
        title: s.title,
        paths: paths.length,
        target: s.target,
        rounds,
        median: m,
        pass: judge(s.target, m),
      });
    }

    // (6) Memory after the runs.
    const memAfter = readMemory(service.pid);
    const memory = {
      afterStartup: memStarted,
      afterCapture: memLoaded,
      afterRuns: memAfter,
      limitMb: MAX_RSS_MB,
      // The peak is what the machine must have: judge on VmHWM, the highest RSS the process ever had.
      pass: memAfter.hwmMb < MAX_RSS_MB,
    };

    // (7) Report.
    const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
    const f2 = (n: number) => n.toFixed(2);
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
      ...results.map((r) => [
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
        r.pass ? 'PASS' : 'FAIL',
      ]),
      [
        'service RSS',
        `${memAfter.rssMb.toFixed(0)} MB`,
        '',
        '',
        '',
        '',
        '',
        `peak ${memAfter.hwmMb.toFixed(0)} MB`,
        '',
        '',
        `<${MAX_RSS_MB} MB`,
        memory.pass ? 'PASS' : 'FAIL',
      ],
    ];
    const mem = (m: Memory) => `${m.rssMb.toFixed(0)} MB (peak ${m.hwmMb.toFixed(0)})`;
    process.stdout.write(
      `\nMedian of ${opts.rounds} rounds × ${opts.duration} s, ${opts.connections} connections, ` +
        `${pinned ? 'server on CPU 0, wrk on CPU 1' : 'unpinned'}; ratio = median of per-round service/bare req/s;\nCPU ratio = bare ÷ service CPU time per request (less disturbed by other load).\n\n` +
        `${table(rows)}\n\nService (${mode === 'build' ? 'compiled build' : 'source via tsx'}) RSS: after start-up ${mem(memStarted)}, after capture ${mem(memLoaded)}, ` +
        `after runs ${mem(memAfter)}.\nLoad average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, ` +
        `after ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')} (other work on this machine skews results).\n`,
    );
    const pass = results.every((r) => r.pass) && memory.pass;
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
      options: { ...opts, pinned, planningRps: PLANNING_RPS, scale: SCALE, serviceMode: mode },
      keys: Object.fromEntries(
        [...keySets].map(([scope, set]: [string, KeySet]) => [scope, set.keys.length]),
      ),
      scenarios: results,
      memory,
      pass,
    };
    writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${join(OUT, 'results.json')}`);
    return pass ? 0 : 1;
  } finally {
    if (bare) await stopChild(bare.child);
    await stopChild(service.child);
  }
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

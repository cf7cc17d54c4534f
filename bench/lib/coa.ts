import { type ChildProcess, fork } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createBuyers, PENDING_PER_ACCOUNT } from './coa-accounts.ts';
import { type Mix, makeUploads, recordsOnFile, someVendors, type Upload } from './coa-fixtures.ts';
import type { ProbeOrder, ProbeReport } from './coa-probe.ts';
import { type FloodResult, flood } from './coa-upload.ts';
import { markOutboxFannedOut, removeDb } from './dataset.ts';
import { type KeySet, prepareKeys } from './keys.ts';
import {
  BenchError,
  cpuTimeMs,
  readMemory,
  type Spawned,
  sampleRss,
  startService,
  stopChild,
  threadCpuMs,
} from './procs.ts';
import { VARIANT_A_ENTERPRISE, VARIANT_B_ENTERPRISE } from './scenarios.ts';
import { median } from './stats.ts';

/**
 * `coa` (issue [6]): verifications per second of distinct two-page CoA uploads, and the latency of
 * `GET /api/v1/vendors?limit=50` while they run, against the same service idle. See bench/README.md.
 */

/** Issue [6]: at least this many verifications per second (median of rounds). */
export const COA_TARGET_PER_SECOND = 20;
/** Issue [6]: the list's p99 during the flood at most this many times its p99 idle (median of rounds). */
export const COA_MAX_P99_RATIO = 2;
/** Uploads in flight: a handful of clients, each waiting for its answer. */
export const UPLOAD_CONCURRENCY = 6;
/** The list the probe measures: the `vendors` scenario's request. */
export const PROBE_PATH = '/api/v1/vendors?limit=50';
/** One list request every 5 ms (200/s, a hundredth of what the service can do): latency, not load. */
export const PROBE_INTERVAL_MS = 5;
/** The probe starts this long after the flood and stops this long before it ends, so it only sees the flood. */
const PROBE_INSET_MS = 500;
const PROBE_WARM_REQUESTS = 50;
/** Files per round are sized from the rate seen so far (×2), at least this many per second… */
const MIN_FILES_PER_SECOND = 40;
/** …and at most this many, which also bounds the uploads the key budget plans for. */
const MAX_FILES_PER_SECOND = 200;
/** Keys per scope: the budget is small (uploads and 200 list requests/s), a few keys carry it. */
const MIN_KEYS = 8;
const ACCOUNT = 'bench';
const PAUSE_MS = 1000;

const log = (line: string) => process.stdout.write(`• ${line}\n`);

export interface LatencySummary {
  n: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Most list requests outstanding at once (the probe does not wait for an answer to send the next). */
  maxOutstanding: number;
  /** How late the probe's own timer fired (client noise, not in the latency): p99, ms. */
  timerLagP99Ms: number;
}

export interface CoaRound {
  round: number;
  uploads: Omit<FloodResult, 'latencyMs' | 'unexpected'> & { p50Ms: number; p99Ms: number };
  idle: LatencySummary;
  flood: LatencySummary;
  /** flood p99 ÷ idle p99 of this round. */
  ratio: number;
  /** Service CPU per verification, ms (all threads), and how busy its threads were during the flood. */
  serviceCpuMsPerVerification: number;
  mainThreadBusy: number;
  /** The busiest thread other than the main one: the PDF worker. */
  workerBusy: number;
  otherThreadsBusy: number;
  /** The other threads by name (/proc/PID/task/TID/comm: V8's GC helpers, libuv's pool…), busy share. */
  otherThreadsByName: Record<string, number>;
  clientCpuMsPerUpload: number;
  probeCpuMs: number;
  /** Highest resident set of the service during the flood (all threads: workers are in the process). */
  rssPeakMb: number;
}

export interface CoaResult {
  rounds: CoaRound[];
  median: { perSecond: number; idleP99Ms: number; floodP99Ms: number; ratio: number };
  /** Highest RSS sampled during any flood, and VmHWM at the end (start-up and warm-up included). */
  peakRssMb: number;
  hwmMb: number;
  pdfBytes: number;
  statuses: Record<string, number>;
  unexpected: { expected: string; got: string; notes: string }[];
  mode: 'unpinned';
  /** Which files were uploaded: `both` is the scenario; one kind is the BENCH_COA_ONLY diagnostic. */
  mix: Mix;
  targets: { perSecond: number; maxRatio: number };
  pass: { rate: boolean; latency: boolean; statuses: boolean };
}

function summarize(r: ProbeReport): LatencySummary {
  const s = [...r.latencyUs].sort((a, b) => a - b);
  const at = (q: number) => (s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN) / 1000;
  return {
    n: s.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: (s[s.length - 1] ?? Number.NaN) / 1000,
    maxOutstanding: r.maxOutstanding,
    timerLagP99Ms: r.timerLagP99Ms,
  };
}

/** The busiest thread names, as `name 12%`. */
const topThreads = (byName: Record<string, number>): string =>
  Object.entries(byName)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([n, b]) => `${n} ${(b * 100).toFixed(0)}%`)
    .join(', ');

/** The probe child: forked once, given one order at a time. */
class Probe {
  private constructor(private readonly child: ChildProcess) {}

  static start(): Probe {
    const child = fork(fileURLToPath(new URL('./coa-probe.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Probe(child);
  }

  run(order: ProbeOrder): Promise<ProbeReport> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new BenchError('the latency probe process exited'));
      this.child.once('exit', onExit);
      this.child.once('message', (m: ProbeReport | { error: string }) => {
        this.child.off('exit', onExit);
        if ('error' in m) reject(new BenchError(`latency probe: ${m.error}`));
        else resolve(m);
      });
      this.child.send(order);
    });
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}

/** One request per key (every answer 200), so no measured request pays a key's first store lookup. */
async function prime(port: number, keys: readonly string[], path: string): Promise<void> {
  for (const key of keys) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new BenchError(`coa: priming a key on ${path}: HTTP ${res.status}`);
  }
}

export async function runCoa(opts: {
  cwd: string;
  out: string;
  scaleDbPath: string;
  rounds: number;
  duration: number;
  warmup: number;
  nodeArgs: string[];
}): Promise<CoaResult> {
  const durationMs = opts.duration * 1000;
  const probeMs = Math.max(1000, durationMs - 2 * PROBE_INSET_MS);
  const probeRequests = Math.floor(probeMs / PROBE_INTERVAL_MS) + PROBE_WARM_REQUESTS;
  const warmFiles = Math.max(4 * UPLOAD_CONCURRENCY, opts.warmup * MIN_FILES_PER_SECOND);
  const maxFilesPerRound = opts.duration * MAX_FILES_PER_SECOND + UPLOAD_CONCURRENCY;
  const maxFiles = warmFiles + opts.rounds * maxFilesPerRound;
  const stray = Object.keys(process.env).filter((k) => k.startsWith('COA_'));
  if (stray.length > 0)
    log(`warning: coa: ${stray.join(', ')} set: the service does not run the default CoA config`);
  // Diagnostic: one kind of file only (BENCH_COA_ONLY=verified: no write per upload).
  const only = process.env.BENCH_COA_ONLY ?? '';
  if (only !== '' && only !== 'verified' && only !== 'pending_review')
    throw new BenchError('BENCH_COA_ONLY takes verified or pending_review');
  const mix: Mix = only === '' ? 'both' : only;
  // Diagnostics: fewer uploads in flight, and a pause after each answer (a paced flood):
  // how the list's latency depends on the upload rate rather than on the machine being saturated.
  const concurrency = positiveEnv('BENCH_COA_INFLIGHT', UPLOAD_CONCURRENCY, 1, UPLOAD_CONCURRENCY);
  const pauseMs = positiveEnv('BENCH_COA_PAUSE_MS', 0, 0, 10_000);
  if (concurrency !== UPLOAD_CONCURRENCY || pauseMs > 0)
    log(
      `note: coa: ${concurrency} in flight, ${pauseMs} ms pause after each answer (a diagnostic, not the scenario)`,
    );
  if (mix !== 'both')
    log(`note: coa: BENCH_COA_ONLY=${mix}: every file is of one kind (a diagnostic, not the scenario)`);

  // The probe's keys: the bench account's, planned against B's daily limit like every list run.
  const keySets = await prepareKeys({
    databaseUrl: `sqlite:${opts.scaleDbPath}`,
    keysFile: join(opts.out, 'keys.txt'),
    account: ACCOUNT,
    demands: [{ policy: VARIANT_B_ENTERPRISE, requests: (2 * opts.rounds + 1) * probeRequests }],
    minKeys: MIN_KEYS,
    log,
  });
  const bKeys = keySets.get('b')!;

  const onFile = recordsOnFile(opts.scaleDbPath, maxFiles);
  const vendors = someVendors(opts.scaleDbPath, maxFiles);
  let made = 0;
  const nowMs = Date.now();
  const generate = async (count: number): Promise<Upload[]> => {
    const t = performance.now();
    const ups = await makeUploads({ from: made, count, mix, onFile, vendors, nowMs });
    made += count;
    log(`coa: generated ${count} distinct two-page CoAs in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return ups;
  };

  // The service on its own copy: the pending submissions the uploads write stay out of other runs.
  const dbPath = join(opts.out, 'coa.db');
  removeDb(dbPath);
  copyFileSync(opts.scaleDbPath, dbPath);
  if (existsSync(`${opts.scaleDbPath}-wal`)) copyFileSync(`${opts.scaleDbPath}-wal`, `${dbPath}-wal`);
  await markOutboxFannedOut(dbPath);

  // The uploaders: enough buyers that none reaches the open-submission limit (coa-accounts.ts).
  // Each kind of file is dealt round-robin over them, so pending ones spread evenly.
  const maxPending = mix === 'verified' ? 0 : mix === 'both' ? Math.ceil(maxFiles / 2) : maxFiles;
  const buyers = await createBuyers(dbPath, Math.max(MIN_KEYS, Math.ceil(maxPending / PENDING_PER_ACCOUNT)));
  if (maxFiles / buyers.length + 1 > VARIANT_A_ENTERPRISE.limit * 0.9)
    throw new BenchError("coa: the buyers' hourly Variant A limit could not carry the planned uploads");
  log(`coa: ${buyers.length} buyer accounts (enterprise, one key each) upload`);
  const dealt = { verified: 0, pending_review: 0 };
  const keyFor = (u: Upload): string => buyers[dealt[u.expected]++ % buyers.length]!;

  // Unpinned, unlike the wrk scenarios: the service reads PDFs in cores − 1 worker threads, so its
  // main thread and its worker need a core each; pinned to one CPU they would share it.
  const warmUploads = await generate(warmFiles);
  let service: Spawned | null = null;
  let probe: Probe | null = null;
  try {
    service = await startService({
      cwd: opts.cwd,
      databaseUrl: `sqlite:${dbPath}`,
      cpu: null,
      logFile: join(opts.out, 'coa-service.log'),
      nodeArgs: opts.nodeArgs,
    });
    const svc = service;
    log(
      `coa: service pid ${svc.pid} on :${svc.port} (unpinned), RSS ${readMemory(svc.pid).rssMb.toFixed(0)} MB`,
    );
    probe = Probe.start();
    const pr = probe;
    const keyList = (s: KeySet) => s.keys.map((k) => k.key);
    await prime(svc.port, keyList(bKeys), PROBE_PATH);
    bKeys.spend(bKeys.keys.length);
    await prime(svc.port, buyers, '/v1/vendors');

    let bOffset = 0;
    const runProbe = async (): Promise<ProbeReport> => {
      bKeys.assertRoom(probeRequests, 'coa probe');
      const r = await pr.run({
        port: svc.port,
        path: PROBE_PATH,
        keys: keyList(bKeys),
        keyOffset: bOffset,
        intervalMs: PROBE_INTERVAL_MS,
        durationMs: probeMs,
        warmRequests: PROBE_WARM_REQUESTS,
      });
      bOffset += r.requests;
      bKeys.spend(r.requests);
      const bad = Object.entries(r.bad);
      if (bad.length > 0) {
        throw new BenchError(
          `coa: the list answered ${bad.map(([s, n]) => `${n}× HTTP ${s}`).join(', ')} during the probe\n${svc.output().slice(-2000)}`,
        );
      }
      return r;
    };
    const runFlood = async (uploads: Upload[], ms: number, withProbe: boolean) => {
      const cpu0 = cpuTimeMs(svc.pid);
      const threads0 = threadCpuMs(svc.pid);
      const rss = sampleRss(svc.pid);
      const floodDone = flood({
        port: svc.port,
        uploads,
        concurrency,
        durationMs: ms,
        keyFor,
        pauseMs,
      });
      const probeDone = withProbe ? sleep(PROBE_INSET_MS).then(runProbe) : null;
      const f = await floodDone;
      const cpuMs = cpuTimeMs(svc.pid) - cpu0;
      const threads1 = threadCpuMs(svc.pid);
      const rssPeakMb = rss.stop();
      const p = probeDone ? await probeDone : null;
      const bad = Object.entries(f.bad);
      if (bad.length > 0) {
        throw new BenchError(
          `coa: uploads answered ${bad.map(([s, b]) => `${b.count}× HTTP ${s} (${b.example})`).join('; ')} — ` +
            `measuring errors is worthless\n${svc.output().slice(-2000)}`,
        );
      }
      // Per thread: the main thread, the busiest other (the PDF worker), the rest (GC, libuv, SQLite).
      const deltas = [...threads1].map(([tid, t]) => ({
        tid,
        name: t.name,
        ms: t.ms - (threads0.get(tid)?.ms ?? 0),
      }));
      const main = deltas.find((d) => d.tid === svc.pid)?.ms ?? 0;
      const others = deltas.filter((d) => d.tid !== svc.pid).sort((x, y) => y.ms - x.ms);
      const worker = others[0]?.ms ?? 0;
      const rest = others.slice(1).reduce((s, d) => s + d.ms, 0);
      const restByName: Record<string, number> = {};
      for (const d of others.slice(1)) restByName[d.name] = (restByName[d.name] ?? 0) + d.ms / ms;
      return { f, p, cpuMs, main, worker, rest, restByName, rssPeakMb };
    };

    // Warm-up: pdfjs loads in the worker on its first document, and both paths get compiled.
    log(`coa: warm-up, ${warmUploads.length} uploads for up to ${opts.warmup} s`);
    // At least a few documents even with --warmup 0: the first one starts the worker and loads pdfjs.
    const warm = await runFlood(warmUploads, Math.max(1, opts.warmup) * 1000, false);
    let rateSeen = warm.f.perSecond;
    log(`coa: warm-up ${rateSeen.toFixed(1)} verifications/s`);

    const rounds: CoaRound[] = [];
    const statuses: Record<string, number> = {};
    const unexpected: CoaResult['unexpected'] = [];
    let pdfBytes = 0;
    let peakRssMb = 0;
    for (let r = 0; r < opts.rounds; r++) {
      const want =
        Math.ceil(opts.duration * Math.max(MIN_FILES_PER_SECOND, 2 * rateSeen)) + UPLOAD_CONCURRENCY;
      const uploads = await generate(Math.min(maxFilesPerRound, want));
      pdfBytes = uploads[0]?.pdfBytes ?? 0;
      await sleep(PAUSE_MS);
      const idle = summarize(await runProbe());
      await sleep(PAUSE_MS / 2);
      const x = await runFlood(uploads, durationMs, true);
      const f = x.f;
      const busy = (ms: number) => ms / durationMs;
      const floodLat = summarize(x.p!);
      const one: CoaRound = {
        round: r + 1,
        uploads: {
          completed: f.completed,
          windowMs: f.windowMs,
          perSecond: f.perSecond,
          sent: f.sent,
          exhausted: f.exhausted,
          bad: f.bad,
          statuses: f.statuses,
          unexpectedCount: f.unexpectedCount,
          clientCpuMs: f.clientCpuMs,
          p50Ms: f.latencyMs[Math.floor(f.latencyMs.length * 0.5)] ?? Number.NaN,
          p99Ms: f.latencyMs[Math.floor(f.latencyMs.length * 0.99)] ?? Number.NaN,
        },
        idle,
        flood: floodLat,
        ratio: floodLat.p99Ms / idle.p99Ms,
        serviceCpuMsPerVerification: x.cpuMs / Math.max(1, f.sent),
        mainThreadBusy: busy(x.main),
        workerBusy: busy(x.worker),
        otherThreadsBusy: busy(x.rest),
        otherThreadsByName: x.restByName,
        clientCpuMsPerUpload: f.clientCpuMs / Math.max(1, f.sent),
        probeCpuMs: x.p!.cpuMs,
        rssPeakMb: x.rssPeakMb,
      };
      rounds.push(one);
      rateSeen = Math.max(rateSeen, f.perSecond);
      peakRssMb = Math.max(peakRssMb, x.rssPeakMb);
      for (const [s, n] of Object.entries(f.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
      unexpected.push(...f.unexpected.slice(0, 5 - Math.min(5, unexpected.length)));
      const st = Object.entries(f.statuses)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ');
      log(
        `coa round ${r + 1}/${opts.rounds}: ${f.perSecond.toFixed(1)} verifications/s (${st}; upload p50 ` +
          `${one.uploads.p50Ms.toFixed(0)} ms, p99 ${one.uploads.p99Ms.toFixed(0)} ms); list p99 idle ` +
          `${idle.p99Ms.toFixed(2)} ms, during uploads ${floodLat.p99Ms.toFixed(2)} ms (×${one.ratio.toFixed(2)}; p50 ` +
          `${idle.p50Ms.toFixed(2)}/${floodLat.p50Ms.toFixed(2)} ms, max ` +
          `${floodLat.maxMs.toFixed(0)} ms, ${floodLat.maxOutstanding} outstanding at most, probe timer lag p99 ` +
          `${idle.timerLagP99Ms.toFixed(1)}/${floodLat.timerLagP99Ms.toFixed(1)} ms); ` +
          `service ${one.serviceCpuMsPerVerification.toFixed(1)} ms CPU/verification, main thread ` +
          `${(one.mainThreadBusy * 100).toFixed(0)}% busy, PDF worker ${(one.workerBusy * 100).toFixed(0)}%, ` +
          `other threads ${(one.otherThreadsBusy * 100).toFixed(0)}% (${topThreads(one.otherThreadsByName)}); client ${one.clientCpuMsPerUpload.toFixed(2)} ms ` +
          `CPU/upload; RSS peak ${x.rssPeakMb.toFixed(0)} MB`,
      );
      if (f.exhausted)
        log(`warning: coa round ${r + 1}: the files ran out before the round ended (window cut short)`);
      if (f.unexpectedCount > 0) {
        log(
          `warning: coa round ${r + 1}: ${f.unexpectedCount} answers were not the status their file should get, e.g. ` +
            `${JSON.stringify(f.unexpected[0])}`,
        );
      }
      await sleep(PAUSE_MS);
    }

    const m = {
      perSecond: median(rounds.map((x) => x.uploads.perSecond)),
      idleP99Ms: median(rounds.map((x) => x.idle.p99Ms)),
      floodP99Ms: median(rounds.map((x) => x.flood.p99Ms)),
      ratio: median(rounds.map((x) => x.ratio)),
    };
    const hwmMb = readMemory(svc.pid).hwmMb;
    return {
      rounds,
      median: m,
      peakRssMb,
      hwmMb,
      pdfBytes,
      statuses,
      unexpected,
      mode: 'unpinned',
      mix,
      targets: { perSecond: COA_TARGET_PER_SECOND, maxRatio: COA_MAX_P99_RATIO },
      pass: {
        rate: m.perSecond >= COA_TARGET_PER_SECOND,
        latency: m.ratio <= COA_MAX_P99_RATIO,
        statuses: rounds.every((x) => x.uploads.unexpectedCount === 0),
      },
    };
  } finally {
    if (probe) await probe.stop();
    if (service) await stopChild(service.child);
    removeDb(dbPath);
  }
}

/** The scenario's rows in run.ts's second table: scenario, median, spread, detail, target, result. */
export function coaRows(c: CoaResult): string[][] {
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const rates = c.rounds.map((r) => r.uploads.perSecond);
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  const statuses = Object.entries(c.statuses)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
  const cpu = median(c.rounds.map((r) => r.serviceCpuMsPerVerification));
  const worker = median(c.rounds.map((r) => r.workerBusy));
  const main = median(c.rounds.map((r) => r.mainThreadBusy));
  return [
    [
      'coa verifications',
      `${c.median.perSecond.toFixed(1)}/s`,
      `${Math.min(...rates).toFixed(1)}–${Math.max(...rates).toFixed(1)}/s`,
      `distinct 2-page CoAs (${(c.pdfBytes / 1024).toFixed(1)} KB), ${UPLOAD_CONCURRENCY} in flight: ${statuses}` +
        `${c.pass.statuses ? '' : ' (NOT all as expected)'}; ${cpu.toFixed(1)} ms service CPU each, PDF worker ` +
        `${(worker * 100).toFixed(0)}% / main thread ${(main * 100).toFixed(0)}% busy`,
      `≥${c.targets.perSecond}/s`,
      verdict(c.pass.rate && c.pass.statuses),
    ],
    [
      'coa list p99 during uploads',
      `×${c.median.ratio.toFixed(2)}`,
      `idle ${ms(c.median.idleP99Ms)}, uploads ${ms(c.median.floodP99Ms)}`,
      `${PROBE_PATH} every ${PROBE_INTERVAL_MS} ms (${c.rounds[0]?.idle.n ?? 0} samples each way per round), same service`,
      `≤${c.targets.maxRatio}× idle`,
      verdict(c.pass.latency),
    ],
    [
      'coa service RSS',
      `${c.peakRssMb.toFixed(0)} MB`,
      `VmHWM ${c.hwmMb.toFixed(0)} MB`,
      'highest RSS during the uploads (PDF worker threads included); VmHWM includes start-up and warm-up',
      '(info)',
      '',
    ],
  ];
}

/** A whole-number diagnostic setting from the environment, within bounds, or the default. */
function positiveEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new BenchError(`${name} takes a whole number from ${min} to ${max}`);
  return n;
}

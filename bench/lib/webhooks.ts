import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { removeDb } from './dataset.ts';
import { prepareKeys, primeKeys } from './keys.ts';
import {
  BenchError,
  captureAnswer,
  cpuTimeMs,
  exited,
  readMemory,
  type Spawned,
  sampleRss,
  schedMs,
  startBare,
  startService,
  stopChild,
  threadCpuMs,
} from './procs.ts';
import { VARIANT_B_ENTERPRISE } from './scenarios.ts';
import type { ExpectOrder, ReceiverStats } from './webhooks-receiver.ts';
import { createHookAccounts, deliveryState, writeBacklog } from './webhooks-setup.ts';
import { checkRun, type Measured, runWrkMeasured } from './wrk.ts';

/**
 * `webhooks` (issue [7]): how fast the service's delivery worker drains a backlog of outbox events to
 * a local receiver, that none is lost, and what the drain costs Variant B's vendor list (wrk, against
 * the bare server serving the same bytes). See bench/README.md.
 */

/** Issue [7]: at least this many deliveries per second to a local receiver (the whole drain). */
export const WEBHOOKS_TARGET_PER_SECOND = 2000;
/** Issue [7]: the vendor list keeps at least this share of the bare server while the backlog drains. */
export const WEBHOOKS_MIN_RATIO = 0.8;
/** Issue [7]: the backlog. BENCH_WEBHOOKS_EVENTS changes it (a diagnostic: the target is on this). */
export const BACKLOG_EVENTS = 100_000;
/** Enterprise accounts, one endpoint each (events ["*"]), each owning VENDORS_EACH scale vendors. */
const ACCOUNTS = 20;
const VENDORS_EACH = 50;
/** The list wrk loads: the `vendors` scenario's request. */
export const LIST_PATH = '/api/v1/vendors?limit=50';
/** The receiver checks the signature and body of the first delivery per endpoint and one in this many. */
const VERIFY_EVERY = 100;
/** Nothing at all delivered this long after the service answers: the worker is not running. */
const FIRST_DELIVERY_TIMEOUT_MS = 60_000;
/** No new (endpoint, event) pair for this long: the drain is stuck; what is missing is counted lost. */
const STALL_TIMEOUT_MS = 120_000;
/** After the drain, late copies (a retry racing its success) still count as duplicates. */
const SETTLE_MS = 2000;
const ACCOUNT = 'bench';
const BEARER = { header: 'Authorization', prefix: 'Bearer ' };
const PAUSE_MS = 1000;

const log = (line: string) => process.stdout.write(`• ${line}\n`);

/** The receiver child (bench/lib/webhooks-receiver.ts), on the client's CPU when pinned. */
class Receiver {
  private readonly waiting: { resolve: (s: ReceiverStats) => void; reject: (e: Error) => void }[] = [];
  private readonly readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (m: ReceiverStats | { kind: 'ready' | 'listening' }) => {
      if (m.kind === 'stats') this.waiting.shift()?.resolve(m);
      else if (m.kind === 'ready') this.readyWaiters.shift()?.resolve();
    });
    // A receiver that dies mid-run fails whoever waits on it rather than leaving the bench hanging.
    child.once('exit', (code, signal) => {
      const err = new BenchError(`webhooks: the receiver exited (${code ?? signal})`);
      for (const w of this.waiting.splice(0)) w.reject(err);
      for (const w of this.readyWaiters.splice(0)) w.reject(err);
    });
  }

  static async start(cpu: string | null): Promise<Receiver> {
    const script = fileURLToPath(new URL('./webhooks-receiver.ts', import.meta.url));
    const argv = ['node', '--import', 'tsx', script];
    const cmd = cpu === null ? argv : ['taskset', '-c', cpu, ...argv];
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new BenchError('webhooks: the receiver did not start')), 30_000);
      child.once('exit', (code) => reject(new BenchError(`webhooks: the receiver exited (${code})`)));
      child.once('message', (m: { kind: string; port?: number }) => {
        clearTimeout(timer);
        if (m.kind === 'listening' && m.port) resolve(m.port);
        else reject(new BenchError(`webhooks: the receiver said ${JSON.stringify(m)}`));
      });
    });
    return new Receiver(child, port);
  }

  get pid(): number {
    return this.child.pid!;
  }

  expect(order: ExpectOrder): Promise<void> {
    if (exited(this.child)) return Promise.reject(new BenchError('webhooks: the receiver exited'));
    return new Promise((resolve, reject) => {
      this.readyWaiters.push({ resolve, reject });
      this.child.send(order);
    });
  }

  stats(): Promise<ReceiverStats> {
    if (exited(this.child)) return Promise.reject(new BenchError('webhooks: the receiver exited'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.send({ kind: 'stats' });
    });
  }

  stop(): Promise<void> {
    return stopChild(this.child);
  }
}

export interface WebhooksResult {
  events: number;
  endpoints: number;
  eventTypes: Record<string, number>;
  /** Whether the service was pinned to one CPU (and the receiver and wrk to the other). */
  pinned: boolean;
  drain: {
    /** Every expected (endpoint, event) pair arrived before the drain stalled. */
    completed: boolean;
    /** From the service's start (spawn) to listening, ms: not part of the drain. */
    startupMs: number;
    /**
     * From listening to answering /healthz (polled every 200 ms), ms, and the same for the setup
     * service (same database, worker off): the difference is how long the worker, which starts right
     * after listen, kept the service from answering a request.
     */
    listenToAnswerMs: number;
    setupListenToAnswerMs: number;
    /** From the drain's start to the first delivery, ms. */
    firstDeliveryLagMs: number;
    /**
     * From the drain's start — the service listening, when the worker starts (the time of the
     * WEBHOOK_ALLOW_PRIVATE_URLS warning it logs then; else its first answer) — to the last expected
     * pair's first arrival, s.
     */
    seconds: number;
    /** Expected pairs ÷ seconds. */
    perSecond: number;
    /** First arrivals from one second after the first delivery ÷ the time from then to the end: sending once under way. */
    steadyPerSecond: number;
    /** First arrivals while wrk measured the list ÷ its window, and outside that window. */
    duringWrkPerSecond: number;
    outsideWrkPerSecond: number;
    /** First arrivals per second of the drain, from its start. */
    timeline: number[];
  };
  delivery: {
    expected: number;
    distinct: number;
    /** expected − distinct: pairs that never arrived. */
    lost: number;
    duplicates: number;
    maxCopies: number;
    unexpected: number;
    unexpectedExamples: string[];
    malformed: number;
    requests: number;
    verified: number;
    verifyFailed: number;
    verifyFailure: string | null;
    /** Connections the worker opened to the receiver in all, and the most open at once. */
    connections: number;
    maxOpenConnections: number;
  };
  /** How the worker left its tables (webhook_messages by status, attempts, fan-out cursor). */
  stored: Awaited<ReturnType<typeof deliveryState>> & { lastSeq: number };
  list: {
    path: string;
    /** The service while the backlog drains, the same service once it has drained, the bare server. */
    duringDrain: Measured;
    idle: Measured;
    bare: Measured;
    /** duringDrain req/s ÷ bare req/s (the target), and idle ÷ bare (the service's own ratio). */
    ratio: number;
    idleRatio: number;
    /**
     * Bare CPU µs per request ÷ the service's, during the drain and after it: less disturbed by other
     * load than req/s. During the drain the service's CPU includes the deliveries: what they cost the list.
     */
    cpuRatio: number;
    idleCpuRatio: number;
    /** Whether the drain was still running when wrk's measured window ended (else the ratio is not "during"). */
    drainRunningAtEnd: boolean;
    /** Pairs still undelivered when the window ended. */
    leftAtEnd: number;
    /**
     * What the deliveries made during the window cost, estimated at the drain-alone CPU per delivery:
     * as a share of the window (of one core) and of the service's CPU in it. The list gets the rest:
     * the why of a ratio below the service's own. Null without a drain-alone stretch.
     */
    deliveryCpuShareOfWindow: number | null;
    deliveryCpuShareOfService: number | null;
    /** Main thread and other threads of the service during the window, share of the window. */
    mainThreadBusy: number;
    /** Share of the window the main thread waited for a CPU (other processes on its core). */
    mainThreadWaiting: number;
    otherThreadsByName: Record<string, number>;
  };
  service: {
    /**
     * The drain alone: from the end of wrk's window to the drain's end, when the bench sends the
     * service nothing. Deliveries and their rate, service CPU (all threads) per delivery, and how
     * busy its main thread and the others were (share of that stretch's wall time): a main thread
     * well under 100% means the worker waits (its poll, its concurrency limits, the receiver), not
     * the CPU. Null when the drain ended before wrk's window did.
     */
    alone: {
      seconds: number;
      deliveries: number;
      perSecond: number;
      cpuMsPerDelivery: number;
      mainThreadBusy: number;
      /** Share of the stretch the main thread waited for a CPU: other processes, not the worker. */
      mainThreadWaiting: number;
      otherThreadsByName: Record<string, number>;
    } | null;
    peakRssMb: number;
    hwmMb: number;
  };
  receiver: { cpuMsPerDelivery: number };
  targets: { perSecond: number; minRatio: number; events: number };
  pass: { rate: boolean; lost: boolean; list: boolean; valid: boolean };
}

/** Per-thread CPU of `pid` between two snapshots, as a share of `ms`: main thread and the rest by name. */
function threadShares(
  pid: number,
  before: Map<number, { ms: number; name: string }>,
  after: Map<number, { ms: number; name: string }>,
  ms: number,
): { main: number; others: Record<string, number> } {
  let main = 0;
  const others: Record<string, number> = {};
  for (const [tid, t] of after) {
    const d = (t.ms - (before.get(tid)?.ms ?? 0)) / ms;
    if (tid === pid) main = d;
    else others[t.name] = (others[t.name] ?? 0) + d;
  }
  return { main, others };
}

/** The busiest thread names, as `name 12%`. */
const topThreads = (byName: Record<string, number>): string =>
  Object.entries(byName)
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([n, b]) => `${n} ${(b * 100).toFixed(0)}%`)
    .join(', ');

/**
 * When the service started listening: the time (epoch ms, the service's clock — this machine's) of
 * the warning it logs right after listen when WEBHOOK_ALLOW_PRIVATE_URLS is on, just before it starts
 * its worker. Null if the log has no such line.
 */
function listenedAt(service: Spawned): number | null {
  for (const line of service.output().split('\n')) {
    if (!line.includes('WEBHOOK_ALLOW_PRIVATE_URLS')) continue;
    try {
      const time = (JSON.parse(line) as { time?: unknown }).time;
      if (typeof time === 'number') return time;
    } catch {
      // not a JSON log line
    }
  }
  return null;
}

/** First arrivals recorded in the receiver's buckets between two epoch-ms times. */
function arrivalsBetween(s: ReceiverStats, fromMs: number, toMs: number): number {
  let n = 0;
  s.timeline.forEach((count, i) => {
    const at = s.baseMs + i * s.bucketMs;
    if (at >= fromMs && at < toMs) n += count;
  });
  return n;
}

export async function runWebhooks(opts: {
  cwd: string;
  out: string;
  scaleDbPath: string;
  duration: number;
  warmup: number;
  connections: number;
  minKeys: number;
  /** Upper bound on the service's req/s, for the key budget (run.ts's PLANNING_RPS). */
  planningRps: number;
  /** CPU of the service and the bare server, and of wrk and the receiver; null = unpinned. */
  serverCpu: number | null;
  clientCpu: string | null;
  nodeArgs: string[];
}): Promise<WebhooksResult> {
  const stray = Object.keys(process.env).filter((k) => k.startsWith('WEBHOOK_'));
  if (stray.length > 0) {
    log(
      `warning: webhooks: ${stray.join(', ')} set: the service does not run the default webhook configuration ` +
        '(WEBHOOK_ALLOW_PRIVATE_URLS and WEBHOOK_WORKER are set by the bench)',
    );
  }
  const events = Number(process.env.BENCH_WEBHOOKS_EVENTS ?? BACKLOG_EVENTS);
  if (!Number.isInteger(events) || events < ACCOUNTS || events > 10_000_000)
    throw new BenchError(`BENCH_WEBHOOKS_EVENTS must be a whole number in ${ACCOUNTS}..10000000`);
  if (events !== BACKLOG_EVENTS)
    log(
      `note: webhooks: BENCH_WEBHOOKS_EVENTS=${events}: a diagnostic, the target is a ${BACKLOG_EVENTS} backlog`,
    );

  // wrk's keys: the bench account's, planned as for the `vendors` scenario (same minimum count, so
  // per-key memory is comparable): two service windows and their connections, priming, one capture.
  const serviceSeconds = opts.warmup + 2 * opts.duration;
  const keySets = await prepareKeys({
    databaseUrl: `sqlite:${opts.scaleDbPath}`,
    keysFile: join(opts.out, 'keys.txt'),
    account: ACCOUNT,
    demands: [
      {
        policy: VARIANT_B_ENTERPRISE,
        requests: serviceSeconds * opts.planningRps + 3 * opts.connections + 1,
      },
    ],
    minKeys: opts.minKeys,
    log,
  });
  const keys = keySets.get('b')!;
  const keysFile = join(opts.out, 'keys-active-webhooks.txt');
  writeFileSync(keysFile, `${keys.keys.map((k) => k.key).join('\n')}\n`);

  // Its own copy: the accounts, ownership, endpoints and 100,000 events stay out of every other run.
  const dbPath = join(opts.out, 'webhooks.db');
  removeDb(dbPath);
  copyFileSync(opts.scaleDbPath, dbPath);
  if (existsSync(`${opts.scaleDbPath}-wal`)) copyFileSync(`${opts.scaleDbPath}-wal`, `${dbPath}-wal`);
  const databaseUrl = `sqlite:${dbPath}`;
  const hooks = await createHookAccounts(dbPath, ACCOUNTS, VENDORS_EACH);
  log(`webhooks: ${hooks.length} enterprise accounts, each owning ${VENDORS_EACH} scale vendors`);

  let receiver: Receiver | null = null;
  let setup: Spawned | null = null;
  let service: Spawned | null = null;
  let bare: Spawned | null = null;
  try {
    receiver = await Receiver.start(opts.clientCpu);
    const rx = receiver;
    const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };

    // (1) Endpoints through the real API, on the copy, with the worker off.
    setup = await startService({
      cwd: opts.cwd,
      databaseUrl,
      // Pinned like the drain's service, so their start-up times compare.
      cpu: opts.serverCpu,
      logFile: join(opts.out, 'webhooks-setup.log'),
      nodeArgs: [],
      env: { ...env, WEBHOOK_WORKER: 'false' },
    });
    const setupReadyAt = Date.now();
    const setupListenAt = listenedAt(setup) ?? setupReadyAt;
    const endpoints: { path: string; secret: string }[] = [];
    for (const [i, h] of hooks.entries()) {
      const path = `/hooks/${i}`;
      const res = await fetch(`http://127.0.0.1:${setup.port}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${rx.port}${path}`,
          events: ['*'],
          description: `bench ${h.name}`,
        }),
      });
      const text = await res.text();
      if (res.status !== 201) {
        throw new BenchError(
          `webhooks: POST /v1/webhooks answered ${res.status}: ${text.slice(0, 300)}` +
            (res.status === 404 ? ' (have the webhook routes landed?)' : ''),
        );
      }
      const secret = (JSON.parse(text) as { secret?: unknown }).secret;
      if (typeof secret !== 'string' || !secret.startsWith('whsec_'))
        throw new BenchError(
          `webhooks: POST /v1/webhooks answered without a whsec_ secret: ${text.slice(0, 300)}`,
        );
      endpoints.push({ path, secret });
    }
    await stopChild(setup.child);
    setup = null;
    log(`webhooks: registered ${endpoints.length} endpoints (events ["*"]) through POST /v1/webhooks`);

    // (2) The backlog, written while no service runs on the copy.
    const t = performance.now();
    const backlog = await writeBacklog(dbPath, hooks, events);
    log(
      `webhooks: wrote ${events} outbox events (seq ${backlog.firstSeq}–${backlog.lastSeq}, fan-out cursor at ` +
        `${backlog.cursor}; ${Object.entries(backlog.types)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    await rx.expect({
      kind: 'expect',
      endpoints: endpoints.map((e, i) => ({ ...e, eventIds: backlog.eventIds[i]! })),
      verifyEvery: VERIFY_EVERY,
    });

    // (3) The service with its worker (default configuration): the drain starts with it.
    const spawnedAt = Date.now();
    service = await startService({
      cwd: opts.cwd,
      databaseUrl,
      cpu: opts.serverCpu,
      logFile: join(opts.out, 'webhooks-service.log'),
      nodeArgs: opts.nodeArgs,
      env: { ...env, WEBHOOK_WORKER: 'true' },
    });
    const readyAt = Date.now();
    const svc = service;
    const listenAt = listenedAt(svc);
    if (listenAt === null)
      log(
        'note: webhooks: no start-up warning with a time in the service log; the drain is timed from its first answer',
      );
    // The drain's start: the worker starts right after listen.
    const t0 = listenAt ?? readyAt;
    const rss = sampleRss(svc.pid);
    log(
      `webhooks: service pid ${svc.pid} on :${svc.port} (${opts.serverCpu === null ? 'unpinned' : `CPU ${opts.serverCpu}`}), ` +
        `listening ${((t0 - spawnedAt) / 1000).toFixed(1)} s after start, answering ${((readyAt - t0) / 1000).toFixed(1)} s ` +
        `after that (without the worker: ${((setupReadyAt - setupListenAt) / 1000).toFixed(1)} s); the backlog drains`,
    );

    // (4) The list under wrk while it drains: capture, prime every key, warm up, measure.
    const captured = await captureAnswer(
      svc.port,
      LIST_PATH,
      BEARER,
      keys.keys[0]!.key,
      VARIANT_B_ENTERPRISE.limit,
    );
    keys.spend(1);
    keys.assertRoom(keys.keys.length, 'priming the keys');
    await primeKeys(svc, keys, LIST_PATH, BEARER);
    keys.spend(keys.keys.length);
    const wrkRun = (port: number, seconds: number) => ({
      connections: opts.connections,
      keysFile,
      pathsFile: null,
      auth: BEARER,
      cpu: opts.clientCpu,
      url: `http://127.0.0.1:${port}${LIST_PATH}`,
      seconds,
    });
    // During the drain wrk's 2 s timeouts are counted, not an invalid run: a list request held that
    // long by the deliveries is what this scenario is about.
    const loadService = async (seconds: number, label: string, duringDrain: boolean): Promise<Measured> => {
      keys.assertRoom(seconds * opts.planningRps + opts.connections, label);
      const r = await runWrkMeasured(wrkRun(svc.port, seconds), svc.pid);
      keys.spend(r.requests + opts.connections);
      checkRun(`${label} (service)`, r, svc, log, duringDrain);
      if (r.errors.timeout > 0)
        log(`note: ${label}: ${r.errors.timeout} list requests took over 2 s (wrk timeouts)`);
      return r;
    };
    if (opts.warmup > 0) await loadService(opts.warmup, 'webhooks list warm-up', true);
    const wrkStart = Date.now();
    const threadsW0 = threadCpuMs(svc.pid);
    const schedW0 = schedMs(svc.pid);
    const during = await loadService(opts.duration, 'webhooks list during the drain', true);
    const threadsW1 = threadCpuMs(svc.pid);
    const cpuW1 = cpuTimeMs(svc.pid);
    const schedW1 = schedMs(svc.pid);
    const wrkEnd = Date.now();
    const atWrkEnd = await rx.stats();
    const leftAtEnd = atWrkEnd.expected - atWrkEnd.distinct;
    const inWindow = threadShares(svc.pid, threadsW0, threadsW1, wrkEnd - wrkStart);
    log(
      `webhooks: list during the drain ${Math.round(during.rps)} req/s (p99 ${(during.latencyUs.p99 / 1000).toFixed(2)} ms, ` +
        `max ${(during.latencyUs.max / 1000).toFixed(0)} ms, ${during.errors.timeout} over 2 s, ` +
        `service busy ${(during.busy * 100).toFixed(0)}%, main thread ${(inWindow.main * 100).toFixed(0)}%, waiting for a CPU ` +
        `${(((schedW1.waitMs - schedW0.waitMs) / (wrkEnd - wrkStart)) * 100).toFixed(0)}%); ` +
        `${atWrkEnd.distinct}/${atWrkEnd.expected} delivered at its end`,
    );
    if (leftAtEnd === 0) {
      log(
        'warning: webhooks: the backlog had drained before wrk finished: the list was not measured during the ' +
          'whole drain (lower --duration/--warmup or raise BENCH_WEBHOOKS_EVENTS)',
      );
    }

    // (5) The rest of the drain: progress every 5 s, stopped by the last arrival or a stall.
    let lastDistinct = -1;
    let lastProgressAt = Date.now();
    let lastLogAt = 0;
    let s = atWrkEnd;
    while (s.distinct < s.expected) {
      s = await rx.stats();
      const now = Date.now();
      if (s.distinct === s.expected) break;
      if (s.firstAtMs === null && now - readyAt > FIRST_DELIVERY_TIMEOUT_MS) {
        throw new BenchError(
          `webhooks: nothing delivered ${FIRST_DELIVERY_TIMEOUT_MS / 1000} s after the service started: is the ` +
            `delivery worker running in \`purerank serve\`? (.bench/webhooks-service.log)\n${svc.output().slice(-2000)}`,
        );
      }
      if (s.distinct !== lastDistinct) {
        lastDistinct = s.distinct;
        lastProgressAt = now;
      } else if (now - lastProgressAt > STALL_TIMEOUT_MS) {
        log(
          `warning: webhooks: no new delivery for ${STALL_TIMEOUT_MS / 1000} s with ${s.expected - s.distinct} ` +
            'undelivered: stopping; they count as lost',
        );
        break;
      }
      if (now - lastLogAt >= 5000) {
        lastLogAt = now;
        const since = (now - t0) / 1000;
        log(
          `webhooks: ${s.distinct}/${s.expected} delivered after ${since.toFixed(0)} s ` +
            `(${Math.round(s.distinct / since)}/s), ${s.duplicates} duplicates`,
        );
      }
      await sleep(250);
    }
    const completed = s.distinct === s.expected;
    // The receiver timed the last expected pair's arrival itself (the poll is 250 ms coarse).
    const endAt = s.completeAtMs ?? Date.now();
    // Read as soon as the poll saw the end (the worker idles after it): the drain-alone stretch.
    const cpuEnd = cpuTimeMs(svc.pid);
    const threadsEnd = threadCpuMs(svc.pid);
    const schedEnd = schedMs(svc.pid);
    const seenEndAt = Date.now();
    const peakRssMb = rss.stop();
    const hwmMb = readMemory(svc.pid).hwmMb;

    // (6) The same service once drained, then the bare server with the captured bytes.
    await sleep(SETTLE_MS);
    const idle = await loadService(opts.duration, 'webhooks list after the drain', false);
    log(
      `webhooks: list after the drain ${Math.round(idle.rps)} req/s (p99 ${(idle.latencyUs.p99 / 1000).toFixed(2)} ms, ` +
        `service busy ${(idle.busy * 100).toFixed(0)}%)`,
    );
    await sleep(PAUSE_MS);
    const responsesFile = join(opts.out, 'webhooks-responses.json');
    writeFileSync(responsesFile, JSON.stringify({ [LIST_PATH]: captured }));
    bare = await startBare({
      cwd: opts.cwd,
      responsesFile,
      cpu: opts.serverCpu,
      logFile: join(opts.out, 'webhooks-bare.log'),
    });
    const got = Buffer.from(await (await fetch(`http://127.0.0.1:${bare.port}${LIST_PATH}`)).arrayBuffer());
    if (got.toString('base64') !== captured.body)
      throw new BenchError('webhooks: the bare server answers other bytes');
    const b = bare;
    if (opts.warmup > 0) await runWrkMeasured(wrkRun(b.port, opts.warmup), b.pid);
    const bareRun = await runWrkMeasured(wrkRun(b.port, opts.duration), b.pid);
    checkRun('webhooks list (bare)', bareRun, b, log);
    await stopChild(b.child);
    bare = null;

    const final = await rx.stats();
    await stopChild(svc.child);
    service = null;
    const stored = await deliveryState(dbPath);

    // Rates: the drain starts when the service answers (or at the first delivery, if the worker was
    // quicker than the listener) and ends at the first arrival of the last expected pair.
    const seconds = (endAt - t0) / 1000;
    const steadyFrom = (final.firstAtMs ?? t0) + 1000;
    const timeline: number[] = [];
    final.timeline.forEach((count, i) => {
      const sec = Math.floor((final.baseMs + i * final.bucketMs - t0) / 1000);
      if (sec < 0) return;
      while (timeline.length <= sec) timeline.push(0);
      timeline[sec]! += count;
    });
    const wrkSeconds = (wrkEnd - wrkStart) / 1000;
    const inWrk = arrivalsBetween(final, wrkStart, wrkEnd);
    const outsideSeconds = Math.max(
      0.001,
      seconds - Math.max(0, (Math.min(wrkEnd, endAt) - wrkStart) / 1000),
    );
    const aloneMs = endAt - wrkEnd;
    const aloneDeliveries = final.distinct - atWrkEnd.distinct;
    const aloneThreads = threadShares(svc.pid, threadsW1, threadsEnd, seenEndAt - wrkEnd);
    const alone =
      leftAtEnd > 0 && aloneMs > 0
        ? {
            seconds: aloneMs / 1000,
            deliveries: aloneDeliveries,
            perSecond: aloneDeliveries / (aloneMs / 1000),
            cpuMsPerDelivery: (cpuEnd - cpuW1) / Math.max(1, aloneDeliveries),
            mainThreadBusy: aloneThreads.main,
            mainThreadWaiting: (schedEnd.waitMs - schedW1.waitMs) / (seenEndAt - wrkEnd),
            otherThreadsByName: aloneThreads.others,
          }
        : null;
    const result: WebhooksResult = {
      events,
      endpoints: endpoints.length,
      eventTypes: backlog.types,
      pinned: opts.serverCpu !== null,
      drain: {
        completed,
        startupMs: t0 - spawnedAt,
        listenToAnswerMs: readyAt - t0,
        setupListenToAnswerMs: setupReadyAt - setupListenAt,
        firstDeliveryLagMs: (final.firstAtMs ?? endAt) - t0,
        seconds,
        perSecond: final.distinct / seconds,
        steadyPerSecond:
          arrivalsBetween(final, steadyFrom, endAt + 1) / Math.max(0.001, (endAt - steadyFrom) / 1000),
        duringWrkPerSecond: inWrk / wrkSeconds,
        outsideWrkPerSecond: (final.distinct - inWrk) / outsideSeconds,
        timeline,
      },
      delivery: {
        expected: final.expected,
        distinct: final.distinct,
        lost: final.expected - final.distinct,
        duplicates: final.duplicates,
        maxCopies: final.maxCopies,
        unexpected: final.unexpected,
        unexpectedExamples: final.unexpectedExamples,
        malformed: final.malformed,
        requests: final.requests,
        verified: final.verified,
        verifyFailed: final.verifyFailed,
        verifyFailure: final.verifyFailure,
        connections: final.connections,
        maxOpenConnections: final.maxOpenConnections,
      },
      stored: { ...stored, lastSeq: backlog.lastSeq },
      list: {
        path: LIST_PATH,
        duringDrain: during,
        idle,
        bare: bareRun,
        ratio: during.rps / bareRun.rps,
        idleRatio: idle.rps / bareRun.rps,
        cpuRatio: bareRun.cpuUsPerRequest / during.cpuUsPerRequest,
        idleCpuRatio: bareRun.cpuUsPerRequest / idle.cpuUsPerRequest,
        drainRunningAtEnd: leftAtEnd > 0,
        leftAtEnd,
        mainThreadBusy: inWindow.main,
        mainThreadWaiting: (schedW1.waitMs - schedW0.waitMs) / (wrkEnd - wrkStart),
        deliveryCpuShareOfWindow: alone ? (inWrk * alone.cpuMsPerDelivery) / (wrkEnd - wrkStart) : null,
        deliveryCpuShareOfService: alone ? (inWrk * alone.cpuMsPerDelivery) / during.cpuMs : null,
        otherThreadsByName: inWindow.others,
      },
      service: {
        alone,
        peakRssMb,
        hwmMb,
      },
      receiver: { cpuMsPerDelivery: final.cpuMs / Math.max(1, final.requests) },
      targets: {
        perSecond: WEBHOOKS_TARGET_PER_SECOND,
        minRatio: WEBHOOKS_MIN_RATIO,
        events: BACKLOG_EVENTS,
      },
      pass: {
        rate: completed && final.distinct / seconds >= WEBHOOKS_TARGET_PER_SECOND,
        lost: final.expected === final.distinct && final.unexpected === 0 && final.verifyFailed === 0,
        list: during.rps / bareRun.rps >= WEBHOOKS_MIN_RATIO,
        valid: leftAtEnd > 0,
      },
    };
    log(
      `webhooks: drained ${final.distinct}/${final.expected} in ${seconds.toFixed(1)} s ` +
        `(${Math.round(result.drain.perSecond)}/s; steady ${Math.round(result.drain.steadyPerSecond)}/s; ` +
        `${Math.round(result.drain.duringWrkPerSecond)}/s during wrk, ${Math.round(result.drain.outsideWrkPerSecond)}/s ` +
        `outside), ${final.duplicates} duplicates, ${final.unexpected} unexpected, signatures ${final.verified} ok / ` +
        `${final.verifyFailed} bad; ${final.connections} connections opened, ${final.maxOpenConnections} open at most; ` +
        (alone
          ? `after wrk: ${Math.round(alone.perSecond)}/s, service ${alone.cpuMsPerDelivery.toFixed(3)} ms CPU/delivery, ` +
            `main thread ${(alone.mainThreadBusy * 100).toFixed(0)}% busy and ${(alone.mainThreadWaiting * 100).toFixed(0)}% ` +
            `waiting for a CPU (${topThreads(alone.otherThreadsByName)}); `
          : '') +
        `receiver ${result.receiver.cpuMsPerDelivery.toFixed(3)} ms CPU/delivery; ` +
        `messages ${JSON.stringify(stored.messages)}, ${stored.attempts} attempts` +
        (stored.failedAttempts.length > 0
          ? ` (${stored.failedAttemptsTotal} failed: ${stored.failedAttempts.map((f) => `${f.count}× ${f.httpStatus ?? ''} ${f.error ?? ''}`.trim()).join('; ')})`
          : '') +
        `; RSS peak ${peakRssMb.toFixed(0)} MB`,
    );
    log(
      `webhooks: list ${Math.round(during.rps)} req/s during the drain, ${Math.round(idle.rps)} after, bare ` +
        `${Math.round(bareRun.rps)} (busy ${(bareRun.busy * 100).toFixed(0)}%): ×${result.list.ratio.toFixed(3)} during, ` +
        `×${result.list.idleRatio.toFixed(3)} after; CPU/req service ${during.cpuUsPerRequest.toFixed(1)} µs during, ` +
        `${idle.cpuUsPerRequest.toFixed(1)} after, bare ${bareRun.cpuUsPerRequest.toFixed(1)} (CPU ratio ` +
        `${result.list.cpuRatio.toFixed(3)} during, ${result.list.idleCpuRatio.toFixed(3)} after)` +
        (result.list.deliveryCpuShareOfService === null
          ? ''
          : `; the ${inWrk} deliveries in the window took ~${(result.list.deliveryCpuShareOfService * 100).toFixed(0)}% of ` +
            `the service's CPU in it`),
    );
    return result;
  } finally {
    if (bare) await stopChild(bare.child);
    if (service) await stopChild(service.child);
    if (setup) await stopChild(setup.child);
    if (receiver) await receiver.stop();
    removeDb(dbPath);
  }
}

/** The scenario's rows in run.ts's second table: scenario, median, spread, detail, target, result. */
export function webhooksRows(w: WebhooksResult): string[][] {
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const d = w.drain;
  const l = w.list;
  return [
    [
      'webhooks deliveries',
      `${f0(d.perSecond)}/s`,
      `steady ${f0(d.steadyPerSecond)}/s; ${f0(d.duringWrkPerSecond)}/s during wrk, ${f0(d.outsideWrkPerSecond)}/s outside`,
      `${f0(w.delivery.distinct)} of ${f0(w.events)} events to ${w.endpoints} endpoints in ${d.seconds.toFixed(1)} s` +
        `${d.completed ? '' : ' (STALLED)'}; first after ${(d.firstDeliveryLagMs / 1000).toFixed(1)} s; service answered ` +
        `${(d.listenToAnswerMs / 1000).toFixed(1)} s after listening (${(d.setupListenToAnswerMs / 1000).toFixed(1)} s without the worker); ` +
        (w.service.alone
          ? `drain alone ${f0(w.service.alone.perSecond)}/s at ${w.service.alone.cpuMsPerDelivery.toFixed(2)} ms service ` +
            `CPU each, main thread ${(w.service.alone.mainThreadBusy * 100).toFixed(0)}% busy, ` +
            `${(w.service.alone.mainThreadWaiting * 100).toFixed(0)}% waiting for a CPU`
          : 'no drain after wrk'),
      `≥${f0(w.targets.perSecond)}/s`,
      verdict(w.pass.rate),
    ],
    [
      'webhooks lost',
      f0(w.delivery.lost),
      `${f0(w.delivery.duplicates)} duplicates (at most ${w.delivery.maxCopies} copies)`,
      `${f0(w.delivery.unexpected)} unexpected; signatures (standardwebhooks) ${f0(w.delivery.verified)} ok, ` +
        `${w.delivery.verifyFailed} bad; ${w.stored.attempts} attempts for ${Object.values(w.stored.messages).reduce((a, b) => a + b, 0)} messages` +
        (w.stored.failedAttempts.length > 0
          ? ` (${w.stored.failedAttemptsTotal} failed, e.g. ${w.stored.failedAttempts[0]!.httpStatus ?? ''} ${w.stored.failedAttempts[0]!.error ?? ''})`
          : ''),
      '0',
      verdict(w.pass.lost),
    ],
    [
      'webhooks list during drain',
      `${l.ratio.toFixed(3)} × bare`,
      `${f0(l.duringDrain.rps)} vs ${f0(l.bare.rps)} req/s; after drain ×${l.idleRatio.toFixed(3)}; CPU ratio ` +
        `${l.cpuRatio.toFixed(3)} during, ${l.idleCpuRatio.toFixed(3)} after`,
      `${l.path}, p99 ${(l.duringDrain.latencyUs.p99 / 1000).toFixed(2)} ms, max ${(l.duringDrain.latencyUs.max / 1000).toFixed(0)} ms` +
        `${l.duringDrain.errors.timeout ? ` (${l.duringDrain.errors.timeout} over 2 s)` : ''}; ` +
        (l.deliveryCpuShareOfService === null
          ? ''
          : `deliveries took ~${(l.deliveryCpuShareOfService * 100).toFixed(0)}% of the service's CPU in the window; `) +
        (l.drainRunningAtEnd
          ? `${f0(l.leftAtEnd)} undelivered at wrk's end`
          : "INVALID: the drain ended before wrk's window"),
      `≥${w.targets.minRatio}×`,
      verdict(w.pass.list && w.pass.valid),
    ],
    [
      'webhooks service RSS',
      `${w.service.peakRssMb.toFixed(0)} MB`,
      `VmHWM ${w.service.hwmMb.toFixed(0)} MB`,
      'highest RSS during the drain (sampled every 50 ms); VmHWM includes start-up',
      '(info)',
      '',
    ],
  ];
}

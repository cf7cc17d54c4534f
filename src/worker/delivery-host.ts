import { Worker } from 'node:worker_threads';
import type { Config } from '../config/config.ts';
import type { WorkerLog } from './delivery-worker.ts';

/**
 * The thread's nice value: 10, as the PDF workers'. On Linux a runnable nice-0 thread gets about
 * nine times the CPU of a nice-10 one on the same core (scheduler weights 1024 and 110), so
 * requests keep nearly all of their core while they come, and the deliveries take what is left:
 * all of it whenever the API pauses. Measured (webhooks bench, service pinned to one core, wrk
 * saturating it): the drain cost the vendor list 12–22 % of its throughput, not 70–80 % as on the
 * main thread. 19 cost it nothing measurable, but nice is machine-wide: with three busy
 * processes beside it, a single delivery then took 1 to 2.3 s rather than 0.2 to 0.3 s at 10.
 * Not a setting: an operator who wants another balance runs `purerank worker` under `nice`
 * (WEBHOOK_WORKER=false).
 */
export const DELIVERY_NICE = 10;

/** Its name in `top -H`, `ps -L` and /proc/PID/task/TID/comm (15 bytes at most). */
export const DELIVERY_THREAD_NAME = 'webhook-worker';

/** What the host passes the thread in workerData. */
export interface DeliveryThreadData {
  /**
   * The service's configuration as `serve` parsed it, not the environment read again: flags and
   * overrides (tests') apply to the thread too.
   */
  config: Readonly<Config>;
  /** The thread's nice value; null leaves it at the process's. */
  nice: number | null;
}

/** An Error loses its `code` (pg, sockets) through postMessage: the thread sends it as fields. */
export interface SentError {
  $error: { type: string; message: string; stack?: string; code?: string };
}

/** Messages the thread sends the host. */
export type FromDeliveryThread =
  | { kind: 'log'; level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; msg: string }
  /** The worker runs; `nice` is the thread's priority as the OS reports it (null if unknown). */
  | { kind: 'started'; nice: number | null }
  /** The thread's attempts since it started, sent when they change (at most every STATS_EVERY_MS). */
  | { kind: 'stats'; attempts: DeliveryAttempts };

/** Delivery attempts by outcome (the metrics' `purerank_webhook_delivery_attempts_total`). */
export interface DeliveryAttempts {
  succeeded: number;
  failed: number;
}

/** How often the thread reports its attempts to the host, when they changed. */
export const STATS_EVERY_MS = 1_000;

/** Messages the host sends the thread. */
export type ToDeliveryThread = { kind: 'stop' };

export interface DeliveryHostOptions {
  /** The thread's nice value (default DELIVERY_NICE); null leaves it at the process's. */
  nice?: number | null;
  /**
   * How long stop() waits for the thread to stop on its own (the worker's own grace for attempts
   * in flight is 5 s, then the store closes) before it terminates it. Default 7 s, within the 10 s
   * `serve` gives its whole shutdown.
   */
  stopGraceMs?: number;
  /** A thread that ended unexpectedly is started again after this, doubling per failure. Default 1 s. */
  restartDelayMs?: number;
  /** The most the restart delay grows to. Default 30 s. */
  maxRestartDelayMs?: number;
}

/** The thread's young generation, MB (see spawn()). */
const YOUNG_GENERATION_MB = 16;

/** A thread that ran this long before it ended starts again after the first delay, not a longer one. */
const STABLE_MS = 60_000;

// Built (dist/) the thread's entry is JavaScript; run from source (tsx, vitest) a JavaScript shim
// registers the tsx loader inside the thread first (delivery-thread.source.mjs), as the PDF pool does.
const fromSource = import.meta.url.endsWith('.ts');
const threadFile = new URL(
  fromSource ? './delivery-thread.source.mjs' : './delivery-thread.js',
  import.meta.url,
);

/**
 * Runs `serve`'s webhook delivery worker in a worker thread of its own (delivery-thread.ts), at a
 * lower CPU priority than the main thread: the worker's database calls are synchronous, and on the
 * main thread a backlog's drain took most of the CPU the requests needed. The thread has its own
 * database connection (SQLite: WAL, so readers and this writer do not block each other; PostgreSQL:
 * its own pool) and its own HTTP client. Its log lines come here and go to the service's log. A
 * thread that ends unexpectedly (an uncaught error, a crash of its isolate) is started again, after
 * a delay that doubles up to a limit; what it held lapses with its claims' leases (at-least-once,
 * as for a killed `purerank worker`).
 */
export class DeliveryHost {
  private readonly opts: Required<DeliveryHostOptions>;
  private thread: Worker | null = null;
  private startedAt = 0;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private niceValue: number | null = null;
  private restartCount = 0;
  /** Attempts of threads that have ended, and of the running one as it last reported them. */
  private readonly ended: DeliveryAttempts = { succeeded: 0, failed: 0 };
  private current_: DeliveryAttempts = { succeeded: 0, failed: 0 };

  constructor(
    private readonly config: Readonly<Config>,
    private readonly log: WorkerLog,
    opts: DeliveryHostOptions = {},
  ) {
    this.opts = {
      nice: DELIVERY_NICE,
      stopGraceMs: 7_000,
      restartDelayMs: 1_000,
      maxRestartDelayMs: 30_000,
      ...opts,
    };
  }

  /** The running thread's nice value as it reported it; null before it runs, or if unknown. */
  get nice(): number | null {
    return this.niceValue;
  }

  /** How often a thread that ended unexpectedly was started again. */
  get restarts(): number {
    return this.restartCount;
  }

  /**
   * Attempts of this process's delivery threads since start (a restarted thread's add to those of
   * the ones before), as of their last report: at most STATS_EVERY_MS behind.
   */
  get stats(): DeliveryAttempts {
    return {
      succeeded: this.ended.succeeded + this.current_.succeeded,
      failed: this.ended.failed + this.current_.failed,
    };
  }

  /** The thread, while one runs (tests end it to see it started again). */
  get current(): Worker | null {
    return this.thread;
  }

  start(): void {
    if (this.thread || this.stopping) return;
    this.spawn();
  }

  private spawn(): void {
    const data: DeliveryThreadData = { config: this.config, nice: this.opts.nice };
    const t = new Worker(threadFile, {
      workerData: data,
      name: 'webhook delivery',
      // The worker's garbage is short-lived (bodies, responses, rows), and the pages of V8's default
      // young generation stay resident. Bench drain, two runs each: peak RSS 344–373 MB rather than
      // 382–387 MB, for about a tenth more CPU per delivery (0.14 ms rather than 0.13 ms).
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.thread = t;
    this.startedAt = performance.now();
    t.on('message', (m: FromDeliveryThread) => this.onMessage(m));
    // An uncaught error in the thread; 'exit' follows, and restarts it.
    t.on('error', (err) => this.log.error({ err }, 'the webhook delivery thread failed'));
    t.once('exit', (code) => this.onExit(t, code));
  }

  private onMessage(m: FromDeliveryThread): void {
    if (m.kind === 'log') this.log[m.level](revive(m.fields), m.msg);
    else if (m.kind === 'started') this.niceValue = m.nice;
    else if (m.kind === 'stats') this.current_ = m.attempts;
  }

  private onExit(t: Worker, code: number): void {
    if (this.thread !== t) return;
    this.thread = null;
    this.niceValue = null;
    this.ended.succeeded += this.current_.succeeded;
    this.ended.failed += this.current_.failed;
    this.current_ = { succeeded: 0, failed: 0 };
    if (this.stopping) return;
    if (performance.now() - this.startedAt >= STABLE_MS) this.failures = 0;
    const delay = Math.min(this.opts.restartDelayMs * 2 ** this.failures, this.opts.maxRestartDelayMs);
    this.failures += 1;
    this.log.error(
      { code, restartInMs: delay },
      'the webhook delivery thread ended unexpectedly; starting it again (its claims lapse and are retried)',
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.restartCount += 1;
      this.spawn();
    }, delay);
  }

  /**
   * Asks the thread to stop (the worker finishes its attempts in flight and writes their outcomes,
   * within its grace) and waits for it to end; past stopGraceMs it is terminated (what it held
   * lapses with the leases).
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.restartTimer) clearTimeout(this.restartTimer);
      this.restartTimer = null;
      const t = this.thread;
      if (!t) return;
      const ended = new Promise<void>((resolve) => t.once('exit', () => resolve()));
      t.postMessage({ kind: 'stop' } satisfies ToDeliveryThread);
      const timer = setTimeout(() => {
        this.log.warn(
          { graceMs: this.opts.stopGraceMs },
          'the webhook delivery thread did not stop in time; ending it',
        );
        void t.terminate();
      }, this.opts.stopGraceMs);
      await ended;
      clearTimeout(timer);
    })();
    return this.stopping;
  }
}

/** The thread's fields with its errors as Errors again, so the service's log serializes them as usual. */
function revive(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    const sent = v !== null && typeof v === 'object' ? (v as Partial<SentError>).$error : undefined;
    if (!sent) {
      out[k] = v;
      continue;
    }
    const e = new Error(sent.message);
    e.name = sent.type;
    if (sent.stack !== undefined) e.stack = sent.stack;
    if (sent.code !== undefined) (e as NodeJS.ErrnoException).code = sent.code;
    out[k] = e;
  }
  return out;
}

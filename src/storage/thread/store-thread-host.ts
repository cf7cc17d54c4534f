import { Worker } from 'node:worker_threads';
import { DomainError, StoreUnavailableError } from '../../core/errors.ts';
import type {
  Args,
  FromStoreThread,
  Method,
  Result,
  StoreThreadData,
  Target,
  ToStoreThread,
} from './protocol.ts';
import { reviveError } from './sent-error.ts';

export interface StoreThreadOptions extends Omit<StoreThreadData, 'nice'> {
  /** The thread's nice value (default STORE_THREAD_NICE); null leaves it at the process's. */
  nice?: number | null;
  /**
   * The longest a call may take (default 30 s). Past it the caller is answered 503 and the thread
   * is ended: a call that long means it is stuck (a lock wait), and the calls queued behind it
   * would wait as long; its transaction rolls back with its connection.
   */
  callTimeLimitMs?: number;
  /** The most calls waiting for the thread at once (default 1024). */
  maxPending?: number;
  /** How long stop() waits for the thread to close its store before it ends it (default 5 s). */
  stopGraceMs?: number;
  /**
   * After a thread ended unexpectedly, calls are refused (503) this long, doubling per failure.
   * Default 1 s.
   */
  restartDelayMs?: number;
  /** The most the refusal grows to. Default 30 s. */
  maxRestartDelayMs?: number;
  /** Where the thread's failures are told (the service's log). */
  onError?: (err: Error, msg: string) => void;
}

/**
 * 10, as the PDF workers' and the delivery thread's: the main thread, which answers requests, keeps
 * nearly all of its core while both are runnable (scheduler weights 1024 and 110), and an upload's
 * database work takes what is left — all of it whenever the API pauses.
 */
export const STORE_THREAD_NICE = 10;

/** A thread that ran this long before it ended counts as a first failure again (as the delivery thread's). */
const STABLE_MS = 60_000;

/** The thread's young generation, MB: its garbage is rows and verdicts, short-lived and small. */
const YOUNG_GENERATION_MB = 8;

// Built (dist/) the thread's entry is JavaScript; from source (tsx, vitest) a shim registers tsx.
const fromSource = import.meta.url.endsWith('.ts');
const threadFile = new URL(fromSource ? './store-thread.source.mjs' : './store-thread.js', import.meta.url);

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A worker thread with its own connection to the store, running a fixed set of the store's calls
 * (protocol.ts) for the main thread: on SQLite those queries are synchronous, and run here they no
 * longer hold up the requests the main thread answers. Started on its first call (or by start());
 * a thread that ends fails the calls it held as the store being unavailable (their transactions
 * rolled back with its connection), and the first call after a delay starts another. Every call
 * has a time limit, and at most `maxPending` wait at once: the messages are a request's own
 * arguments and its answer, each bounded by what the core sends (a verdict, a batch's records).
 */
export class StoreThread {
  private readonly opts: Required<Omit<StoreThreadOptions, 'onError'>> & Pick<StoreThreadOptions, 'onError'>;
  private thread: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private niceValue: number | null = null;
  private startedAt = 0;
  /** Consecutive unexpected ends; calls are refused until refuseUntil (performance.now()). */
  private failures = 0;
  private refuseUntil = -Infinity;
  private stopping: Promise<void> | null = null;

  constructor(opts: StoreThreadOptions) {
    this.opts = {
      nice: STORE_THREAD_NICE,
      callTimeLimitMs: 30_000,
      maxPending: 1024,
      stopGraceMs: 5_000,
      restartDelayMs: 1_000,
      maxRestartDelayMs: 30_000,
      ...opts,
    };
  }

  /** The thread's nice value as it reported it; null before it runs, or if unknown. */
  get nice(): number | null {
    return this.niceValue;
  }

  /** The running thread, if any (tests end it to see the next call start another). */
  get current(): Worker | null {
    return this.thread;
  }

  /**
   * Starts the thread now rather than on the first call (`serve`: the first upload does not wait),
   * and tells its failures to `onError` from now on.
   */
  start(onError?: (err: Error, msg: string) => void): void {
    if (onError) this.opts.onError = onError;
    if (!this.thread && !this.stopping) this.spawn();
  }

  call<T extends Target, M extends Method<T>>(
    target: T,
    method: M,
    ...args: Args<T, M>
  ): Promise<Result<T, M>> {
    // After an unexpected end (a failed start, a crash, a stuck call), not one thread per request:
    // refused at once until the delay, doubling per failure, has passed.
    if (this.stopping || performance.now() < this.refuseUntil) {
      return Promise.reject(new StoreUnavailableError());
    }
    if (this.pending.size >= this.opts.maxPending) {
      return Promise.reject(
        new DomainError(
          'service_unavailable',
          'Too many uploads are being recorded right now; retry in a few seconds.',
          { retryAfterSeconds: 3 },
        ),
      );
    }
    const t = this.thread ?? this.spawn();
    const id = this.nextId++;
    return new Promise<Result<T, M>>((resolve, reject) => {
      // Sent before it is counted: arguments that cannot be copied (a function) throw here, and
      // the call then holds no slot and no timer.
      t.postMessage({ kind: 'call', id, target, method, args } satisfies ToStoreThread);
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new StoreUnavailableError());
        this.opts.onError?.(
          new Error(`a call (${target}.${method}) took longer than ${this.opts.callTimeLimitMs} ms`),
          'the CoA store thread is stuck; ending it',
        );
        void t.terminate();
      }, this.opts.callTimeLimitMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
    });
  }

  private spawn(): Worker {
    const data: StoreThreadData = {
      databaseUrl: this.opts.databaseUrl,
      method: this.opts.method,
      poolSize: this.opts.poolSize,
      nice: this.opts.nice,
    };
    const t = new Worker(threadFile, {
      workerData: data,
      name: 'coa store',
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.thread = t;
    this.startedAt = performance.now();
    t.on('message', (m: FromStoreThread) => this.onMessage(m));
    t.on('error', (err) => this.opts.onError?.(err, 'the CoA store thread failed'));
    t.once('exit', () => this.onExit(t));
    return t;
  }

  private onMessage(m: FromStoreThread): void {
    if (m.kind === 'ready') {
      this.niceValue = m.nice;
      return;
    }
    if (m.kind === 'failed') {
      // The thread ends after this; its exit refuses calls for a while (onExit).
      this.opts.onError?.(reviveError(m.error), 'the CoA store thread could not open the store');
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return; // Timed out meanwhile.
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.kind === 'result') p.resolve(m.value);
    else p.reject(reviveError(m.error));
  }

  /**
   * Every end but stop()'s is a failure: the calls it held are answered 503 (not the client's doing;
   * a retry is served by the next thread, and meets a write the ended one had committed), and calls
   * are refused for a delay that doubles per failure, so a thread that cannot start (a missing
   * build, a database that is down) is not started again for every request.
   */
  private onExit(t: Worker): void {
    if (this.thread !== t) return;
    this.thread = null;
    this.niceValue = null;
    if (this.stopping) {
      // Ended by stop()'s grace: what it still held is not answered.
      this.failAll(() => new StoreUnavailableError());
      return;
    }
    if (performance.now() - this.startedAt >= STABLE_MS) this.failures = 0;
    const delay = Math.min(this.opts.restartDelayMs * 2 ** this.failures, this.opts.maxRestartDelayMs);
    this.failures += 1;
    this.refuseUntil = performance.now() + delay;
    this.opts.onError?.(
      new Error(`the CoA store thread ended with ${this.pending.size} calls in flight`),
      `the CoA store thread ended; uploads are answered 503 for ${delay} ms, then it starts again`,
    );
    this.failAll(() => new StoreUnavailableError());
  }

  private failAll(error: () => Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) {
      clearTimeout(p.timer);
      p.reject(error());
    }
  }

  /** Lets the calls sent finish, closes the thread's store and waits for it to end (at most stopGraceMs). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const t = this.thread;
      if (!t) return;
      const ended = new Promise<void>((resolve) => t.once('exit', () => resolve()));
      t.postMessage({ kind: 'stop' } satisfies ToStoreThread);
      const timer = setTimeout(() => void t.terminate(), this.opts.stopGraceMs);
      await ended;
      clearTimeout(timer);
    })();
    return this.stopping;
  }
}

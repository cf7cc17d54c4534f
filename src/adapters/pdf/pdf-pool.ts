import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { DocumentReading, PdfReader } from '../../core/coa/model.ts';
import type { ExtractTask } from './extract-worker.ts';
import type { ReadLimits } from './read-pdf.ts';

export interface PdfPoolOptions extends ReadLimits {
  /** Worker threads (default: cores − 1, at least 1, so the main thread keeps a core). */
  threads?: number;
  /** Wall time one document may take in a worker; past it the worker is terminated. */
  timeLimitMs: number;
  /**
   * V8 heap of each worker, MB; a worker that runs out is replaced. Buffers outside the V8 heap
   * (pdfjs decodes streams into them) are bounded too: while documents are read, the process's
   * resident memory may grow by at most twice this, or the reads are stopped (`memory_limit`).
   */
  heapLimitMb: number;
  /** Documents waiting for a worker, counted and in bytes; past either, `busy`. */
  maxQueued: number;
  maxQueuedBytes: number;
}

/** A task that loads the worker's modules and reads nothing (`%PDF` alone is no document). */
const WARM_UP: ExtractTask = {
  bytes: new Uint8Array([0x25, 0x50, 0x44, 0x46]),
  limits: { maxPages: 1, maxInflatedBytes: 1 },
};

interface Waiting {
  bytes: Uint8Array;
  signal: AbortSignal | undefined;
  resolve: (r: DocumentReading | Promise<DocumentReading>) => void;
}

/** How often the memory watchdog looks while documents are read. */
const WATCH_MS = 50;

// Built (dist/) the worker is JavaScript; run from source (tsx, vitest) a JavaScript shim registers
// the tsx loader inside the worker thread first (extract-worker.source.mjs says why).
const fromSource = import.meta.url.endsWith('.ts');
const workerFile = new URL(
  fromSource ? './extract-worker.source.mjs' : './extract-worker.js',
  import.meta.url,
);

/**
 * Parses untrusted PDFs in a pool of worker threads, never on the main thread. The pool keeps its
 * own bounded queue and hands piscina a document only when a worker is free, so the wall-time
 * limit (an AbortSignal; piscina terminates a worker whose task is aborted) measures parsing, not
 * waiting. A worker that dies (heap limit, crash) is replaced by piscina.
 */
export class PdfPool implements PdfReader {
  private poolInstance: Piscina<ExtractTask, DocumentReading> | null = null;
  private readonly threads: number;
  private running = 0;
  private readonly queue: Waiting[] = [];
  private queuedBytes = 0;
  /** Reads in progress, each stoppable by the memory watchdog. */
  private readonly inFlight = new Set<AbortController>();
  private watch: { timer: NodeJS.Timeout; baseline: number } | null = null;

  constructor(private readonly opts: PdfPoolOptions) {
    this.threads = Math.max(1, opts.threads ?? availableParallelism() - 1);
  }

  /** Workers start on first use (or warm()): a process that never reads a PDF never starts one. */
  private get pool(): Piscina<ExtractTask, DocumentReading> {
    if (this.poolInstance) return this.poolInstance;
    this.poolInstance = new Piscina<ExtractTask, DocumentReading>({
      filename: workerFile.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      // The pool's own queue is the bounded one; piscina's never holds more than the free workers.
      maxQueue: this.threads,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.heapLimitMb,
        maxYoungGenerationSizeMb: Math.min(32, Math.max(4, Math.floor(this.opts.heapLimitMb / 8))),
        stackSizeMb: 4,
      },
      closeTimeout: 2_000,
    });
    // A worker that fails outside a task (it cannot load, it dies while idle) is reported here;
    // unheard, the event would end the process. Each task's own failure reaches its caller through
    // run(), so there is nothing more to do with it than not to crash. Once per pool: the getter
    // runs for every document, and a listener added each time was kept for the process's life.
    this.poolInstance.on('error', () => {});
    return this.poolInstance;
  }

  private warming: Promise<void> | null = null;
  private closed = false;

  /**
   * Loads pdfjs in every worker (about a second each), once. `serve` calls it at start; the first
   * document waits for it too, so no document's clock includes a worker's start-up.
   */
  warm(): Promise<void> {
    this.warming ??= Promise.all(Array.from({ length: this.threads }, () => this.pool.run(WARM_UP))).then(
      () => {},
      (err: unknown) => {
        // A failed start is not kept: the next document tries again. Workers ended by close()
        // while they started are no failure.
        this.warming = null;
        if (this.closed) return;
        throw err;
      },
    );
    return this.warming;
  }

  read(bytes: Uint8Array, signal?: AbortSignal): Promise<DocumentReading> {
    if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'busy' });
    if (this.running < this.threads) return this.start(bytes);
    if (
      this.queue.length >= this.opts.maxQueued ||
      this.queuedBytes + bytes.byteLength > this.opts.maxQueuedBytes
    ) {
      return Promise.resolve({ ok: false, reason: 'busy' });
    }
    this.queuedBytes += bytes.byteLength;
    return new Promise((resolve) => this.queue.push({ bytes, signal, resolve }));
  }

  private async start(bytes: Uint8Array): Promise<DocumentReading> {
    this.running++;
    let restart: Promise<unknown> | null = null;
    const memory = new AbortController();
    // The time limit is a timer of our own, not AbortSignal.timeout(): inside AbortSignal.any() Node
    // holds a timeout signal only weakly, and a garbage collection before it fires loses it
    // (nodejs/node#57736), so a slow document ran on until the memory watchdog stopped it (17.5 s
    // in CI instead of 1 s).
    const time = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.warm();
      // A copy the worker owns outright, in an ArrayBuffer of its own that can be transferred. Not
      // `bytes.slice()`: on a Buffer that is a view of the same memory, and a small Buffer lives
      // in Node's shared allocation pool, which a transfer would take from every other Buffer.
      const own = new Uint8Array(bytes.byteLength);
      own.set(bytes);
      this.inFlight.add(memory);
      this.watchMemory();
      timer = setTimeout(() => time.abort(), this.opts.timeLimitMs);
      return await this.pool.run(
        {
          bytes: own,
          limits: { maxPages: this.opts.maxPages, maxInflatedBytes: this.opts.maxInflatedBytes },
        },
        {
          transferList: [own.buffer],
          signal: AbortSignal.any([time.signal, memory.signal]),
        },
      );
    } catch (e) {
      // The worker never throws for a bad document (read-pdf.ts answers ok: false), so anything
      // but a limit is the service's own failure (a worker that cannot start): an error, not a
      // verdict about the document.
      // Workers ended by close() (a graceful stop) under a read whose client had gone, so the stop
      // did not wait for it: not a failure of the service, and nobody is there for an answer.
      if (this.closed) return { ok: false, reason: 'busy' };
      const reason = memory.signal.aborted ? 'memory_limit' : limitHit(e);
      if (reason === null) throw e;
      // The worker was replaced. Its successor loads pdfjs (about a second) before it can read:
      // the slot stays taken until it has, so the next document's clock does not pay for the
      // start-up, while this caller has its answer now.
      restart = this.pool.run(WARM_UP).catch(() => {});
      return { ok: false, reason };
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(memory);
      if (this.inFlight.size === 0) this.stopWatching();
      if (restart) void restart.then(() => this.release());
      else this.release();
    }
  }

  /**
   * The memory watchdog: pdfjs inflates streams into buffers outside the V8 heap, which the
   * worker's heap limit does not see (a small LZW or Brotli stream, or an encrypted one the
   * inflation guard cannot read, decodes to gigabytes). While documents are read, the process's
   * resident memory may not grow by more than twice the worker heap limit per worker; past it every read in
   * progress is stopped, its worker terminated (freeing the buffers), and answered `memory_limit`.
   */
  private watchMemory(): void {
    if (this.watch) return;
    const baseline = process.memoryUsage.rss();
    // Per worker: every worker may be reading a document at once.
    const allowed = this.threads * 2 * this.opts.heapLimitMb * 1024 * 1024;
    const timer = setInterval(() => {
      if (process.memoryUsage.rss() - baseline <= allowed) return;
      for (const c of this.inFlight) c.abort();
    }, WATCH_MS);
    timer.unref();
    this.watch = { timer, baseline };
  }

  private stopWatching(): void {
    if (!this.watch) return;
    clearInterval(this.watch.timer);
    this.watch = null;
  }

  private release(): void {
    this.running--;
    this.next();
  }

  private next(): void {
    for (let w = this.queue.shift(); w; w = this.queue.shift()) {
      this.queuedBytes -= w.bytes.byteLength;
      // Its client left while it waited: nobody would read the answer.
      if (w.signal?.aborted) {
        w.resolve({ ok: false, reason: 'busy' });
        continue;
      }
      w.resolve(this.start(w.bytes));
      return;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.queue.splice(0)) w.resolve({ ok: false, reason: 'busy' });
    this.queuedBytes = 0;
    this.stopWatching();
    await this.poolInstance?.destroy();
    this.poolInstance = null;
    this.warming = null;
  }
}

function limitHit(e: unknown): 'time_limit' | 'memory_limit' | null {
  const err = e as { name?: unknown; code?: unknown };
  if (err.name === 'AbortError') return 'time_limit';
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') return 'memory_limit';
  return null;
}

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code (CommonJS, evaluated: no file to find beside the compiled or the source build).
 * Every `intervalMs` it runs a PASSIVE checkpoint on a connection of its own: it copies what the
 * WAL holds back into the database file and syncs it, without waiting for (or blocking) readers
 * and writers, and tells the parent how many frames it moved.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
// Frames of the current WAL already copied: the count starts again when a writer restarts the WAL.
let copied = 0;
const timer = setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (!r) return;
    const moved = r.checkpointed >= copied ? r.checkpointed - copied : r.checkpointed;
    copied = r.checkpointed;
    if (moved > 0) parentPort.postMessage(moved);
  } catch {
    // Busy or locked this time: the next tick tries again, and the service's own connection
    // still checkpoints at its usual threshold.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** WAL frames this thread has copied back into the database file so far. */
  readonly frames: () => number;
  stop(): Promise<void>;
}

/**
 * Runs the WAL checkpoints of a SQLite database on a thread of its own. Left to the connection that
 * commits, a checkpoint (every 1,000 pages of WAL: about a second of a CoA upload flood) copies
 * megabytes into the database file and syncs it inside a COMMIT on the main thread: 4–90 ms during
 * which no request is answered (docs/performance.md, CoA). Checkpointed often here, the WAL never
 * reaches that threshold; if this thread stops, the connection's own checkpoints take over as
 * before. A long-running server only: a one-shot command or a test has nothing to gain from a
 * thread.
 */
export function startCheckpointer(path: string, intervalMs = 100): Checkpointer {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { path, intervalMs, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  let frames = 0;
  worker.on('message', (n: number) => {
    frames += n;
  });
  // A thread that fails (it could not open the file) leaves the checkpoints to the connection.
  worker.on('error', () => {});
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    frames: () => frames,
    async stop() {
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The nice value of Node's and V8's own helper threads under `serve`: the same as the PDF worker's
 * (src/adapters/pdf/extract-worker.ts) and the webhook worker's (src/worker/delivery-host.ts),
 * whose garbage collection those helpers mostly do.
 *
 * Why: V8's platform pool (four threads by default) runs every isolate's parallel and concurrent
 * garbage collection. During a flood of CoA uploads the PDF worker's collections kept them about
 * 60 % of a core busy at nice 0, beside the PDF worker itself at nice 10, so on a 2-core machine
 * both cores were often taken and the main thread waited for one (on this kernel a thread just
 * scheduled runs out its slice first, and a tick is 4 ms). At nice 10 they are picked far less
 * often while the main thread wants a core, and still take every idle cycle. They also do the main
 * thread's concurrent marking and background compilation; the cached vendor list measured within
 * its noise with them lowered (decision 0024), which is all that was measured of that.
 */
export const HELPER_THREADS_NICE = 10;

/**
 * Lowers the priority of the threads the process already has other than the main one, on Linux
 * (elsewhere nice is per process, so it does nothing). Called first thing in `serve`, before the
 * service starts a thread of its own: what runs then besides the main thread is Node's and V8's
 * own: the platform pool, its delayed-task scheduler, the inspector's signal watcher, libuv's pool
 * if loading the modules already started it (file reads, DNS lookups and password hashing then run
 * at nice 10 too, which only matters when nice-0 work fills every core) and, run from source,
 * tsx's loader. Never raises a priority: a service started under `nice 15` keeps 15 everywhere.
 * Returns how many threads were lowered, or null where this does not apply.
 */
export function lowerHelperThreads(nice: number = HELPER_THREADS_NICE): number | null {
  if (!Number.isInteger(nice) || nice < -20 || nice > 19) throw new RangeError(`nice ${nice} is not -20..19`);
  if (process.platform !== 'linux') return null;
  let tids: string[];
  try {
    // A /proc of another PID namespace would name other threads, the main one among them.
    if (readlinkSync('/proc/self') !== String(process.pid)) return null;
    tids = readdirSync('/proc/self/task');
  } catch {
    return null; // No /proc (a container without it): the threads keep the process's priority.
  }
  let lowered = 0;
  for (const t of tids) {
    const tid = Number(t);
    if (!Number.isSafeInteger(tid) || tid === process.pid) continue;
    try {
      // On Linux a thread id names that thread alone for getpriority(2) and setpriority(2).
      if (getPriority(tid) >= nice) continue;
      setPriority(tid, nice);
      lowered++;
    } catch {
      // The thread ended meanwhile, or lowering is refused: it keeps the process's priority.
    }
  }
  return lowered;
}

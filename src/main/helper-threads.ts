import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * The nice value of Node's and V8's own helper threads under `serve`: the same as the PDF and
 * webhook workers' (10), whose garbage collection those helpers mostly do.
 *
 * Why: V8's platform pool (four threads by default) runs every isolate's parallel and concurrent
 * garbage collection. During a flood of CoA uploads the PDF worker's collections kept them 60 % of
 * a core busy at nice 0, beside the PDF worker itself at nice 10, so on a 2-core machine both cores
 * were often taken and the main thread waited for one (the kernel lets a thread that was just
 * scheduled run out its slice, up to a 4 ms tick here). At nice 10 they yield to the main thread
 * as the PDF worker does, and still take every idle cycle. The main thread's own collections lose
 * nothing that matters: the main thread joins its parallel collections itself and does the work
 * the helpers do not get to.
 */
export const HELPER_THREADS_NICE = 10;

/**
 * Lowers the priority of the threads the process already has other than the main one, on Linux
 * (elsewhere nice is per process, so it does nothing). Called first thing in `serve`, before the
 * service starts a thread of its own: what runs then besides the main thread is Node's and V8's
 * own: the platform pool, its delayed-task scheduler, the inspector's signal watcher, libuv's pool
 * (loading the modules started it: file reads, DNS lookups and password hashing then run at nice
 * 10 too, which only matters when nice-0 work fills every core) and, run from source, tsx's loader.
 * Returns how many threads were lowered, or null where this does not apply.
 */
export function lowerHelperThreads(nice: number = HELPER_THREADS_NICE): number | null {
  if (process.platform !== 'linux') return null;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null; // No /proc (a container without it): the threads keep the process's priority.
  }
  let lowered = 0;
  for (const t of tids) {
    const tid = Number(t);
    if (!Number.isSafeInteger(tid) || tid === process.pid) continue;
    try {
      // On Linux a thread id names that thread alone for setpriority(2).
      setPriority(tid, nice);
      lowered++;
    } catch {
      // The thread ended meanwhile, or lowering is refused: it keeps the process's priority.
    }
  }
  return lowered;
}

/**
 * Child process of helper-threads.test.ts: lowers the helper threads, then starts a worker thread
 * of its own (a thread that is not the main one), and prints one JSON line: what lowerHelperThreads
 * returned and every thread's nice value as /proc reports it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { lowerHelperThreads } from '../../src/main/helper-threads.ts';

/** Field 19 of /proc/self/task/TID/stat, counted after the parenthesised name; null if it ended. */
const niceOf = (tid: string): number | null => {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return null;
  }
};

const lowered = lowerHelperThreads();
const tids = readdirSync('/proc/self/task');
const main = String(process.pid);
// A thread started afterwards is not lowered: only the threads present when serve starts are.
const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
await new Promise((r) => worker.once('online', r));
const after = readdirSync('/proc/self/task').filter((t) => !tids.includes(t));
process.stdout.write(
  `${JSON.stringify({
    lowered,
    main: niceOf(main),
    others: tids.filter((t) => t !== main).map(niceOf),
    startedAfter: after.map(niceOf),
  })}\n`,
);
await worker.terminate();

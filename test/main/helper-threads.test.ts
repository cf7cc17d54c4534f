import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HELPER_THREADS_NICE } from '../../src/main/helper-threads.ts';
import { DIALECTS, startServer, stopServer, suiteDatabase } from '../cli/run-cli.ts';

const PROBE = resolve(import.meta.dirname, 'helper-threads-probe.ts');
const onLinux = process.platform === 'linux';

/** Every thread of a process: its name and nice value (/proc/PID/task/TID/stat). */
function threadsOf(pid: number): { tid: number; name: string; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((t) => {
    const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { tid: Number(t), name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
  });
}

/**
 * helper-threads.ts: V8's platform pool yields to the main thread under `serve`. Checked in child
 * processes: lowering a thread's priority cannot be undone without privileges, and the test runner's
 * own threads are not the subject.
 */
describe.runIf(onLinux)('lowerHelperThreads', () => {
  it('lowers every thread the process has but the main one, and none started later', async () => {
    // Run from its own process: tsx's loader thread is one of the threads present, as in `serve`
    // run from source.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROBE], {
      cwd: resolve(import.meta.dirname, '../..'),
    });
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      lowered: number;
      main: number;
      others: number[];
      startedAfter: number[];
    };
    expect(r.main).toBe(0);
    // V8's platform pool alone is four threads.
    expect(r.others.length).toBeGreaterThanOrEqual(4);
    expect(r.lowered).toBe(r.others.length);
    expect(r.others.every((n) => n === HELPER_THREADS_NICE)).toBe(true);
    expect(r.startedAfter.length).toBeGreaterThan(0);
    expect(r.startedAfter.every((n) => n === 0)).toBe(true);
  });

  describe.each(DIALECTS.slice(0, 1))('in purerank serve (%s)', (dialect) => {
    const db = suiteDatabase(dialect);

    it('the main thread keeps its priority; the helpers, the PDF worker and the webhook worker are lowered', async () => {
      const server = await startServer(db.env);
      try {
        const pid = server.child.pid!;
        // The webhook worker and the PDF worker start after listen: wait for both to be running.
        let threads = threadsOf(pid);
        for (let i = 0; i < 100 && !threads.some((t) => t.name === 'webhook-worker'); i++) {
          await new Promise((r) => setTimeout(r, 100));
          threads = threadsOf(pid);
        }
        const main = threads.find((t) => t.tid === pid)!;
        expect(main.nice).toBe(0);
        const lowered = threads.filter((t) => t.tid !== pid && t.nice === HELPER_THREADS_NICE);
        // The platform pool (4), the PDF worker, the webhook worker at least.
        expect(lowered.length, JSON.stringify(threads)).toBeGreaterThanOrEqual(6);
        expect(lowered.some((t) => t.name === 'webhook-worker')).toBe(true);
      } finally {
        await stopServer(server.child);
      }
    });
  });
});

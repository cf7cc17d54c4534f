import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HELPER_THREADS_NICE } from '../../src/main/helper-threads.ts';
import { DIALECTS, startServer, stopServer, suiteDatabase } from '../cli/run-cli.ts';

const PROBE = resolve(import.meta.dirname, 'helper-threads-probe.ts');
const ROOT = resolve(import.meta.dirname, '../..');
const onLinux = process.platform === 'linux';
/** The suite's own nice value: children start with it (the suite may itself run under `nice`). */
const base = getPriority();
const lowered = Math.max(base, HELPER_THREADS_NICE);

/** Every thread of a process still running: its name and nice value (/proc/PID/task/TID/stat). */
function threadsOf(pid: number): { tid: number; name: string; nice: number }[] {
  const out: { tid: number; name: string; nice: number }[] = [];
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.push({ tid: Number(t), name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

interface ProbeResult {
  lowered: number;
  main: number;
  others: number[];
  startedAfter: number[];
}

async function probe(prefix: string[] = []): Promise<ProbeResult> {
  const [cmd, ...args] = [...prefix, process.execPath, '--import', 'tsx', PROBE];
  const { stdout } = await promisify(execFile)(cmd!, args, { cwd: ROOT, timeout: 20_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ProbeResult;
}

/**
 * helper-threads.ts (decision 0024): Node's and V8's helper threads yield to the main thread under
 * `serve`. Checked in child processes: a lowered priority cannot be raised again without
 * privileges, and the test runner's own threads are not the subject.
 */
describe.runIf(onLinux)('lowerHelperThreads', () => {
  it('lowers every thread the process has but the main one, and none started later', async () => {
    const r = await probe();
    expect(r.main).toBe(base);
    // V8's platform pool alone is four threads.
    expect(r.others.length).toBeGreaterThanOrEqual(4);
    expect(r.others.every((n) => n === lowered)).toBe(true);
    if (base < HELPER_THREADS_NICE) expect(r.lowered).toBe(r.others.length);
    expect(r.startedAfter.length).toBeGreaterThan(0);
    expect(r.startedAfter.every((n) => n === base)).toBe(true);
  });

  it('never raises a priority: under nice 15 every thread stays at 15', async () => {
    const r = await probe(['nice', '-n', String(15 - base)]);
    const start = Math.max(15, base);
    expect(r.lowered).toBe(0);
    expect(r.main).toBe(start);
    expect(r.others.every((n) => n === start)).toBe(true);
  });

  describe.each(DIALECTS.slice(0, 1))('in purerank serve (%s)', (dialect) => {
    const db = suiteDatabase(dialect);

    it('the main thread keeps its priority; the helpers are lowered beside the PDF and webhook workers', async () => {
      // One PDF worker, so the threads at nice 10 are not the PDF pool's alone on a large machine.
      const server = await startServer({ ...db.env, COA_WORKERS: '1' });
      try {
        const pid = server.child.pid!;
        // The webhook worker and the PDF worker start after listen: wait for the webhook worker.
        let threads = threadsOf(pid);
        for (let i = 0; i < 100 && !threads.some((t) => t.name === 'webhook-worker'); i++) {
          await new Promise((r) => setTimeout(r, 100));
          threads = threadsOf(pid);
        }
        expect(threads.find((t) => t.tid === pid)?.nice).toBe(base);
        const low = threads.filter((t) => t.tid !== pid && t.nice === lowered);
        expect(low.some((t) => t.name === 'webhook-worker')).toBe(true);
        // Besides the webhook worker: the platform pool (4) and the one PDF worker at least.
        if (base < HELPER_THREADS_NICE)
          expect(
            low.filter((t) => t.name !== 'webhook-worker').length,
            JSON.stringify(threads),
          ).toBeGreaterThanOrEqual(5);
      } finally {
        await stopServer(server.child);
      }
    });
  });
});

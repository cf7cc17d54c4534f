/**
 * The `coa` scenario's latency probe, a child process of the bench (forked with IPC) so that the
 * upload client's work never delays its timers or its reads: one GET at a fixed rate, far below
 * saturation, so it measures how long one request waits, not how many the service can do. See
 * bench/lib/coa.ts.
 *
 * Open loop: each request is sent when it is due, whether or not earlier ones have been answered,
 * on its own keep-alive connections (a free one of a small warmed pool; more are opened if the
 * service stalls with many outstanding), as independent clients would. A slow answer therefore
 * cannot hide the requests due behind it (no coordinated omission), and one stall is not
 * compounded into a backlog either. Latency runs from the write to the last byte of the answer;
 * how late this process's own timer fired is reported, not counted.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProbeOrder {
  port: number;
  path: string;
  /** Bearer keys, used round-robin from `keyOffset`. */
  keys: string[];
  keyOffset: number;
  intervalMs: number;
  durationMs: number;
  /** Unmeasured requests first (connection, JIT). */
  warmRequests: number;
}

export interface ProbeReport {
  /** Latency of each measured request, µs, in order. */
  latencyUs: number[];
  /** Requests sent in all (warm-up included), for the key ledger. */
  requests: number;
  /** Answers other than 200, by status (0 = the request failed). */
  bad: Record<string, number>;
  /** Most requests outstanding at once (1 when every answer came before the next was due). */
  maxOutstanding: number;
  /** How late this process's timer fired, ms: p99 and max (client-side noise, not counted). */
  timerLagP99Ms: number;
  timerLagMaxMs: number;
  /** CPU time of this process during the probe, ms. */
  cpuMs: number;
}

/** Connections kept open and warmed: enough for a stall of WARM_SOCKETS × the interval without a new one. */
const WARM_SOCKETS = 16;
const agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });

function get(port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function probe(o: ProbeOrder): Promise<ProbeReport> {
  let k = o.keyOffset;
  const nextKey = () => o.keys[k++ % o.keys.length]!;
  const bad: Record<string, number> = {};
  const count = (status: number) => {
    if (status !== 200) bad[status] = (bad[status] ?? 0) + 1;
  };
  // Warm: WARM_SOCKETS connections at once (they stay open), then one at a time.
  let warm = 0;
  while (warm < o.warmRequests) {
    const batch = Math.min(WARM_SOCKETS, o.warmRequests - warm);
    const got = await Promise.all(Array.from({ length: batch }, () => get(o.port, o.path, nextKey())));
    got.forEach(count);
    warm += batch;
  }

  const cpu0 = process.cpuUsage();
  const n = Math.floor(o.durationMs / o.intervalMs);
  const latencyUs = new Array<number>(n);
  const lags: number[] = [];
  const pending: Promise<void>[] = [];
  let outstanding = 0;
  let maxOutstanding = 0;
  const t0 = performance.now() + o.intervalMs;
  for (let i = 0; i < n; i++) {
    const due = t0 + i * o.intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    lags.push(sent - due);
    outstanding++;
    maxOutstanding = Math.max(maxOutstanding, outstanding);
    pending.push(
      get(o.port, o.path, nextKey()).then((status) => {
        latencyUs[i] = Math.round((performance.now() - sent) * 1000);
        outstanding--;
        count(status);
      }),
    );
  }
  await Promise.all(pending);
  const cpu = process.cpuUsage(cpu0);
  lags.sort((a, b) => a - b);
  return {
    latencyUs,
    requests: o.warmRequests + n,
    bad,
    maxOutstanding,
    timerLagP99Ms: lags[Math.floor(lags.length * 0.99)] ?? 0,
    timerLagMaxMs: lags[lags.length - 1] ?? 0,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

process.on('message', (o: ProbeOrder) => {
  probe(o).then(
    (r) => process.send?.(r),
    (e: unknown) => process.send?.({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
// The bench went away (or is done): nothing else keeps this process useful.
process.on('disconnect', () => process.exit(0));

/**
 * The `coa` scenario's latency probe, a child process of the bench (forked with IPC) so that the
 * upload client's work never delays its timers or its reads: one GET at a fixed rate over one
 * keep-alive connection, far below saturation, so it measures how long one request waits, not how
 * many the service can do. See bench/lib/coa.ts.
 *
 * Latency is measured from the moment the request is written to the last byte of the answer. When
 * the previous answer came back after this request was due (one connection, so it had to wait),
 * latency counts from when it was due instead: a slow answer is not allowed to hide the requests it
 * held up (coordinated omission). Timer lateness in this process is not counted (it is reported).
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
  /** Requests that had to wait for the previous answer past their due time. */
  heldUp: number;
  /** How late this process's timer fired, ms: p99 and max (client-side noise, not counted). */
  timerLagP99Ms: number;
  timerLagMaxMs: number;
  /** CPU time of this process during the probe, ms. */
  cpuMs: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

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
  for (let i = 0; i < o.warmRequests; i++) count(await get(o.port, o.path, nextKey()));

  const cpu0 = process.cpuUsage();
  const n = Math.floor(o.durationMs / o.intervalMs);
  const latencyUs: number[] = [];
  const lags: number[] = [];
  let heldUp = 0;
  let prevEnd = 0;
  const t0 = performance.now() + o.intervalMs;
  for (let i = 0; i < n; i++) {
    const due = t0 + i * o.intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    if (prevEnd <= due) lags.push(sent - due);
    const status = await get(o.port, o.path, nextKey());
    const end = performance.now();
    count(status);
    // Held up by the previous answer: the wait behind it is part of this request's latency.
    const from = prevEnd > due ? due : sent;
    if (prevEnd > due) heldUp++;
    latencyUs.push(Math.round((end - from) * 1000));
    prevEnd = end;
  }
  const cpu = process.cpuUsage(cpu0);
  lags.sort((a, b) => a - b);
  return {
    latencyUs,
    requests: o.warmRequests + n,
    bad,
    heldUp,
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

import { Agent, request } from 'node:http';
import type { Upload } from './coa-fixtures.ts';

/**
 * The `coa` scenario's upload client: prebuilt multipart bodies over keep-alive node:http (the
 * cheapest client Node has: no FormData, no encoding, one write per request), a fixed number in
 * flight. The client shares the machine's two cores with the service, so its cost matters; it is
 * reported (client CPU per upload).
 */

export interface FloodResult {
  /** 200 answers that completed inside the window. */
  completed: number;
  /** The window: from the first request to the deadline (or to the last answer, when files ran out), ms. */
  windowMs: number;
  /** completed ÷ window. */
  perSecond: number;
  /** Every request sent (in-flight ones at the deadline included), for the key ledger. */
  sent: number;
  /** The files ran out before the deadline (the window was cut short). */
  exhausted: boolean;
  /** HTTP answers other than 200, by status (0 = the request failed), with one body each. */
  bad: Record<string, { count: number; example: string }>;
  /** Verification statuses of the 200 answers, and those that were not what the file should get. */
  statuses: Record<string, number>;
  /** Answers whose status was not what the file should get: how many, and the first few. */
  unexpectedCount: number;
  unexpected: { expected: string; got: string; notes: string }[];
  /** Per-upload latency, ms (sorted). */
  latencyMs: number[];
  /** CPU of this (client) process during the flood, ms. */
  clientCpuMs: number;
}

interface Answer {
  status: number;
  body: string;
}

function post(agent: Agent, port: number, u: Upload, key: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/coa/verify',
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': u.contentType,
          'content-length': u.body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', (e) => resolve({ status: 0, body: e.message }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end(u.body);
  });
}

/**
 * Uploads `uploads` in order, `concurrency` at a time, until `durationMs` after the first request
 * (or the files run out); waits for the requests in flight, checks every answer.
 */
export async function flood(o: {
  port: number;
  uploads: readonly Upload[];
  concurrency: number;
  durationMs: number;
  /** The key to send a file with (called once per file, in order). */
  keyFor: (u: Upload) => string;
  /** Each client waits this long after an answer before its next upload (a diagnostic: a paced flood). */
  pauseMs?: number;
}): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const bad: FloodResult['bad'] = {};
  const statuses: Record<string, number> = {};
  const unexpected: FloodResult['unexpected'] = [];
  const latencyMs: number[] = [];
  let next = 0;
  let sent = 0;
  let completed = 0;
  let lastInWindow = 0;
  let unexpectedCount = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + o.durationMs;

  const lane = async () => {
    while (next < o.uploads.length && performance.now() < deadline) {
      const u = o.uploads[next]!;
      const key = o.keyFor(u);
      next++;
      sent++;
      const start = performance.now();
      const a = await post(agent, o.port, u, key);
      const end = performance.now();
      if (o.pauseMs) await new Promise((r) => setTimeout(r, o.pauseMs));
      if (a.status !== 200) {
        const b = bad[a.status] ?? { count: 0, example: a.body.slice(0, 300) };
        b.count++;
        bad[a.status] = b;
        continue;
      }
      let got = 'unparsable';
      let notes = '';
      try {
        const v = JSON.parse(a.body) as { status?: unknown; notes?: unknown };
        got = typeof v.status === 'string' ? v.status : 'missing';
        notes = JSON.stringify(v.notes ?? null).slice(0, 400);
      } catch {
        // counted as 'unparsable'
      }
      statuses[got] = (statuses[got] ?? 0) + 1;
      if (got !== u.expected) {
        unexpectedCount++;
        if (unexpected.length < 20) unexpected.push({ expected: u.expected, got, notes });
      }
      latencyMs.push(end - start);
      if (end <= deadline) {
        completed++;
        lastInWindow = end;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  agent.destroy();
  const cpu = process.cpuUsage(cpu0);
  const exhausted = next >= o.uploads.length && lastInWindow < deadline;
  const windowMs = exhausted ? Math.max(1, lastInWindow - t0) : o.durationMs;
  latencyMs.sort((a, b) => a - b);
  return {
    completed,
    windowMs,
    perSecond: (completed * 1000) / windowMs,
    sent,
    exhausted,
    bad,
    statuses,
    unexpectedCount,
    unexpected,
    latencyMs,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

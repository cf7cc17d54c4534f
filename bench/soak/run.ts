/**
 * `npm run soak -- --minutes M`: a mixed load held for M minutes against one instance (its own by
 * default, or --url), reporting throughput, p99 latency and the service's resident memory over
 * time; the verdict is the issue's bar: RSS growth under 10 % after warm-up (the end against the
 * first 20 % of the run) and no error. Exit status 0 when it passes, 1 otherwise. docs/reliability.md, Soak.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { installCleanup, type Spawned, serviceMode, startService, stopChild } from '../lib/procs.ts';
import { Client } from './http.ts';
import { parseOptions, USAGE } from './options.ts';
import { Receiver } from './receiver.ts';
import { Recorder } from './recorder.ts';
import { Admin, prepare, restore } from './setup.ts';
import { adminLane, coaLane, type Lanes, mixShares, readClients } from './workload.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The issue's bar. */
const MAX_RSS_GROWTH_PERCENT = 10;
const WARMUP_SHARE = 0.2;

interface Sample {
  /** Seconds since the load started. */
  t: number;
  rpsByKind: Record<string, number>;
  p99MsByKind: Record<string, number>;
  errors: number;
  rssMb: number | null;
  rssPeakMb: number | null;
  deliveries: number;
}

function vmRssMb(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

async function main(): Promise<number> {
  let o: ReturnType<typeof parseOptions>;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`soak: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  installCleanup();
  const durationMs = o.minutes * 60_000;
  let service: Spawned | null = null;
  let tmp: string | null = null;
  let url = o.url;
  let token = o.adminToken;
  let pid = o.pid;
  const receiver = new Receiver();
  const receiverPort = await receiver.listen();
  if (url === null) {
    tmp = mkdtempSync(join(tmpdir(), 'purerank-soak-'));
    token = randomBytes(24).toString('base64url');
    process.stdout.write(
      `starting the service (${serviceMode(ROOT)}) on a temp SQLite database with the demo data (${tmp}) …\n`,
    );
    service = await startService({
      cwd: ROOT,
      databaseUrl: `sqlite:${join(tmp, 'soak.db')}`,
      cpu: null,
      logFile: join(tmp, 'service.log'),
      nodeArgs: [],
      env: {
        PURERANK_SEED_DEMO: 'true',
        PURERANK_ADMIN_TOKEN: token,
        // The receiver is on loopback, which webhook targets may only be in development and tests.
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        // Deliveries go out within a second of an event (the default polls every 250 ms already).
        LOG_LEVEL: 'warn',
      },
    });
    url = `http://127.0.0.1:${service.port}`;
    pid = service.pid;
  }
  const http = new Client(url, o.clients + 16);
  const admin = new Admin(http, token!);
  const rec = new Recorder();
  const shares = mixShares();
  const planned = (s: { a: number; b: number }) => ({
    a: s.a * o.rps * Math.min(o.minutes, 60) * 60,
    b: s.b * o.rps * o.minutes * 60,
  });
  const world = await prepare({
    http,
    admin,
    receiver,
    receiverPort,
    plannedReaders: planned(shares.readers),
    plannedHooks: planned(shares.hooks),
    margin: o.clients + 8,
    extraKey: o.key,
  });
  if (o.key !== null) {
    const a = await http.send('GET', '/v1/vendors?per_page=1', { authorization: `Bearer ${o.key}` });
    if (a.status !== 200)
      throw new Error(`--key: GET /v1/vendors answered ${a.status} ${a.body.slice(0, 200)}`);
  }
  process.stdout.write(
    `target ${url}${pid === null ? ' (no --pid: RSS not measured)' : ` pid ${pid}`}; ${o.minutes} min, ` +
      `${o.clients} read clients at ${o.rps} req/s, ${o.coaPerSecond} CoA uploads/s, an operator write every ${o.adminEverySeconds} s; ` +
      `${world.readers.size} reader keys, ${world.hooks.size} keys of ${world.hookVendors.length} claimed vendors' account with ` +
      `${world.endpointIds.length} webhook endpoints, ${world.buyers.length} buyers\n`,
  );

  const t0 = Date.now();
  const lanes: Lanes = { stopAt: t0 + durationMs, http, admin, world, rec };
  const samples: Sample[] = [];
  let rssPeak: number | null = null;
  let warmRss: number | null = null;
  let lastRss: number | null = null;
  let lastDeliveries = 0;
  let lastReportAt = t0;
  const sampleRss = () => {
    if (pid === null) return;
    const r = vmRssMb(pid);
    if (r === null) return;
    lastRss = r;
    rssPeak = Math.max(rssPeak ?? 0, r);
    if (warmRss === null && Date.now() - t0 >= WARMUP_SHARE * durationMs) warmRss = r;
  };
  const report = () => {
    const now = Date.now();
    const secs = (now - lastReportAt) / 1000;
    lastReportAt = now;
    const s: Sample = {
      t: Math.round((now - t0) / 1000),
      rpsByKind: {},
      p99MsByKind: {},
      errors: 0,
      rssMb: lastRss,
      rssPeakMb: rssPeak,
      deliveries: receiver.counts.deliveries - lastDeliveries,
    };
    lastDeliveries = receiver.counts.deliveries;
    let all = 0;
    const parts: string[] = [];
    for (const [kind, k] of rec.kinds) {
      s.rpsByKind[kind] = Math.round((k.interval.count / secs) * 10) / 10;
      s.p99MsByKind[kind] = Math.round(k.interval.quantile(0.99) * 10) / 10;
      s.errors += k.intervalErrors;
      all += k.interval.count;
      parts.push(`${kind} ${fmt(k.interval.count / secs, 1)}/s p99 ${fmt(k.interval.quantile(0.99), 1)}`);
      k.interval.reset();
      k.intervalErrors = 0;
    }
    samples.push(s);
    process.stdout.write(
      `[${String(s.t).padStart(5)} s] ${fmt(all / secs)} req/s, errors ${s.errors}, RSS ${fmt(lastRss ?? Number.NaN, 1)} MB ` +
        `(peak ${fmt(rssPeak ?? Number.NaN, 1)}), webhooks received ${s.deliveries} | ${parts.join('; ')}\n`,
    );
  };
  sampleRss();
  const rssTimer = setInterval(sampleRss, 1000);
  const reportTimer = setInterval(report, o.reportSeconds * 1000);
  const [, coaStatuses] = await Promise.all([
    readClients(lanes, o.clients, o.rps),
    coaLane(lanes, o.coaPerSecond),
    adminLane(lanes, o.adminEverySeconds * 1000),
  ]);
  clearInterval(reportTimer);
  clearInterval(rssTimer);
  sampleRss();
  const endRss: number | null = lastRss;
  if (Date.now() - lastReportAt > 1000) report();
  const elapsed = (Date.now() - t0) / 1000;
  // Deliveries of the last events may still be on their way: wait a moment for them.
  await new Promise((r) => setTimeout(r, 3000));

  const restoreProblems = await restore(world, admin, http);

  // The end: a table of the whole run.
  const rows = [...rec.kinds].map(([kind, k]) => ({
    kind,
    requests: k.total.count,
    perSecond: k.total.count / elapsed,
    p50: k.total.quantile(0.5),
    p99: k.total.quantile(0.99),
    max: k.total.maxMs,
    errors: k.totalErrors,
  }));
  const w = Math.max(...rows.map((r) => r.kind.length), 4);
  const out: string[] = [
    '',
    `${'kind'.padEnd(w)}  requests     req/s   p50 ms   p99 ms   max ms  errors`,
    ...rows.map(
      (r) =>
        `${r.kind.padEnd(w)}  ${String(r.requests).padStart(8)}  ${fmt(r.perSecond, 1).padStart(8)}  ${fmt(r.p50, 1).padStart(7)}  ` +
        `${fmt(r.p99, 1).padStart(7)}  ${fmt(r.max, 0).padStart(7)}  ${String(r.errors).padStart(6)}`,
    ),
  ];
  const totalRequests = rows.reduce((s, r) => s + r.requests, 0);
  out.push(
    `${'all'.padEnd(w)}  ${String(totalRequests).padStart(8)}  ${fmt(totalRequests / elapsed, 1).padStart(8)}`,
  );
  const errors = rec.totalErrors + receiver.counts.bad;
  if (rec.errors.size > 0 || receiver.counts.bad > 0) {
    out.push('', 'errors:');
    for (const g of rec.errors.values())
      out.push(`  ${g.count} × ${g.kind} → ${g.status === 0 ? 'no answer' : g.status}: ${g.example}`);
    if (rec.ungrouped > 0) out.push(`  ${rec.ungrouped} more in other groups`);
    for (const b of receiver.counts.badExamples) out.push(`  webhook delivery refused by the receiver: ${b}`);
  }
  const usage = { readers: world.readers.usage(), hooks: world.hooks.usage() };
  out.push(
    '',
    `keys: ${usage.readers.keys} reader keys (Variant B ${usage.readers.sent.b} requests, at most ${usage.readers.mostOnOneKey.b} on one key; ` +
      `Variant A ${usage.readers.sent.a}, at most ${usage.readers.mostOnOneKey.a}), ${usage.hooks.keys} keys of the webhooks account ` +
      `(A ${usage.hooks.sent.a}, at most ${usage.hooks.mostOnOneKey.a}); waits for a key: ${world.readers.starved + world.hooks.starved}`,
    `CoA uploads: ${Object.entries(coaStatuses)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}`,
    `webhooks received: ${receiver.counts.deliveries} (${Object.entries(receiver.counts.byType)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ')}), duplicates ${receiver.counts.duplicates}, refused ${receiver.counts.bad}`,
    `keep-alive races: ${http.keepAliveRetries} requests sent again after the service closed an idle connection as they were written (ECONNRESET before any answer, on a reused socket; bench/soak/http.ts)`,
  );
  const growth = warmRss !== null && endRss !== null ? ((endRss - warmRss) / warmRss) * 100 : null;
  out.push(
    growth === null
      ? 'RSS: not measured (give --pid)'
      : `RSS: ${fmt(warmRss!, 1)} MB after warm-up (first ${WARMUP_SHARE * 100} %), ${fmt(endRss!, 1)} MB at the end ` +
          `(${growth >= 0 ? '+' : ''}${fmt(growth, 1)} %), peak ${fmt(rssPeak ?? Number.NaN, 1)} MB`,
  );
  if (restoreProblems.length > 0) out.push(`clean-up problems: ${restoreProblems.join('; ')}`);
  const pass = growth !== null && growth < MAX_RSS_GROWTH_PERCENT && errors === 0;
  const why =
    growth === null
      ? 'RSS was not measured'
      : [
          growth >= MAX_RSS_GROWTH_PERCENT
            ? `RSS grew ${fmt(growth, 1)} % (bar: < ${MAX_RSS_GROWTH_PERCENT} %)`
            : '',
          errors > 0 ? `${errors} errors` : '',
        ]
          .filter(Boolean)
          .join(', ');
  out.push(
    `verdict: ${pass ? 'PASS' : 'FAIL'} (bar: RSS growth < ${MAX_RSS_GROWTH_PERCENT} % after warm-up and no error${pass ? '' : `; ${why}`})`,
  );
  process.stdout.write(`${out.join('\n')}\n`);

  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  const file = o.out ?? join(ROOT, '.bench', `soak-${new Date(t0).toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: new Date(t0).toISOString(),
        options: {
          ...o,
          adminToken: o.adminToken === null ? null : '(given)',
          key: o.key === null ? null : '(given)',
        },
        target: { url, pid, ownService: service !== null },
        elapsedSeconds: elapsed,
        samples,
        totals: rows,
        errors: [...rec.errors.values()],
        webhooks: receiver.counts,
        coaStatuses,
        keepAliveRetries: http.keepAliveRetries,
        keys: usage,
        rss: { warmMb: warmRss, endMb: endRss, peakMb: rssPeak, growthPercent: growth },
        verdict: {
          pass,
          bar: `RSS growth < ${MAX_RSS_GROWTH_PERCENT} % after warm-up and no error`,
          why: pass ? null : why,
        },
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`time series: ${file}\n`);

  http.close();
  await receiver.close();
  if (service) await stopChild(service.child);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  return pass ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`soak: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);

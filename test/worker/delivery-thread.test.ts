import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PARALLEL_GC_NOTICE } from '../../src/main/gc-mode.ts';
import { STORE_THREAD_NAME } from '../../src/storage/thread/protocol.ts';
import { DELIVERY_NICE, DELIVERY_THREAD_NAME, DeliveryHost } from '../../src/worker/delivery-host.ts';
import { startServer, stopServer } from '../cli/run-cli.ts';
import { DIALECTS } from '../support/databases.ts';
import { eventually, memoryLog, reviews, startReceiver, webhookContext } from './support.ts';

/** Threads of a process by name, with their nice values (/proc/PID/task/TID/stat, field 19). */
function threads(pid: number | 'self'): { tid: number; name: string; nice: number }[] {
  const out: { tid: number; name: string; nice: number }[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // After the name: field 3 (state) onwards, so field 19 (nice) is at 16.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(tid), name, nice: Number(fields[16]) });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

const linux = process.platform === 'linux';
/** The thread's nice value when the process runs at `base` (the host sets DELIVERY_NICE, never a higher priority). */
const lowered = (base: number) => Math.max(base, DELIVERY_NICE);

describe.each(DIALECTS)("serve's delivery thread (%s)", (dialect) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it.skipIf(!linux)(
    'purerank serve delivers from a thread of its own, at nice 10 while the main thread keeps its own priority, and its log reaches the service log',
    async () => {
      const ctx = await webhookContext(dialect);
      cleanups.push(() => ctx.close());
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/hooks'), events: ['*'] });
      const server = await startServer({
        DATABASE_URL: ctx.databaseUrl,
        PURERANK_SEED_DEMO: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_POLL_MS: '50',
        LOG_LEVEL: 'info',
      });
      cleanups.push(async () => {
        if (server.child.exitCode === null && server.child.signalCode === null)
          await stopServer(server.child);
      });
      const pid = server.child.pid!;
      expect(server.output()).toContain('Webhook delivery: on, in this process (a thread of its own');

      const delivery = await eventually(
        'the delivery thread named',
        () => threads(pid).find((t) => t.name === DELIVERY_THREAD_NAME),
        10_000,
      );
      const main = threads(pid).find((t) => t.tid === pid)!;
      expect(delivery.tid).not.toBe(pid);
      // Only the delivery thread is lowered: the main thread (requests) keeps the process's nice.
      expect(delivery.nice).toBe(lowered(main.nice));
      // serve starts the CoA store thread at once (decision 0025), at the same priority.
      const store = await eventually(
        'the CoA store thread named',
        () => threads(pid).find((t) => t.name === STORE_THREAD_NAME),
        10_000,
      );
      expect(store.nice).toBe(lowered(main.nice));
      // Started without --single-threaded-gc (as this test does), the banner says how to start it.
      expect(server.output()).toContain(PARALLEL_GC_NOTICE);
      if (main.nice < DELIVERY_NICE) expect(main.nice).toBeLessThan(delivery.nice);
      // The worker's own log line, relayed from the thread into the service's pino log.
      await eventually('the worker logged its start', () =>
        server.output().includes('"msg":"webhook delivery worker started"'),
      );
      const started = server
        .output()
        .split('\n')
        .find((l) => l.includes('webhook delivery worker started'))!;
      expect(JSON.parse(started)).toMatchObject({ level: 30, pid, concurrency: 200 });

      // And it delivers what was written after it started (by another connection: the test's).
      await ctx.load(reviews('alpha', 3));
      await eventually('three events delivered', () => receiver.countById('/hooks').size === 3, 10_000);

      // SIGTERM: the thread stops with the service, which exits cleanly, nothing logged as an error.
      expect(await stopServer(server.child)).toBe(0);
      expect(server.output()).toContain('webhook delivery worker stopped');
      expect(server.output()).not.toMatch(/"level":50/);
    },
    60_000,
  );

  it('a delivery thread that dies is started again, at the lower priority, and goes on delivering; stop() ends it', async () => {
    const ctx = await webhookContext(dialect);
    cleanups.push(() => ctx.close());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/hooks'), events: ['*'] });
    const log = memoryLog();
    const host = new DeliveryHost(ctx.container.config, log, { restartDelayMs: 50 });
    cleanups.push(() => host.stop());
    host.start();

    await ctx.load(reviews('alpha', 5));
    await eventually('the first events delivered', () => receiver.countById('/hooks').size === 5, 15_000);
    const first = host.current!;
    expect(first).not.toBeNull();
    if (linux) {
      expect(host.nice).toBe(lowered(threads('self').find((t) => t.tid === process.pid)!.nice));
      expect(threads('self').filter((t) => t.name === DELIVERY_THREAD_NAME)).toHaveLength(1);
    }

    // The thread ends without the host asking (as an uncaught error or a crashed isolate would).
    await first.terminate();
    await eventually('a new thread running', () => host.restarts === 1 && host.current !== null, 10_000);
    expect(host.current).not.toBe(first);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: expect.stringContaining('the webhook delivery thread ended unexpectedly'),
      }),
    );
    await eventually('the new thread reported its priority', () => host.nice !== null, 10_000);
    if (linux) expect(host.nice).toBe(lowered(threads('self').find((t) => t.tid === process.pid)!.nice));

    await ctx.load(reviews('alpha', 5));
    await eventually(
      'events after the restart delivered',
      () => receiver.countById('/hooks').size === 10,
      15_000,
    );

    // stop(): the worker stops gracefully in its thread (its log says so), and the thread ends.
    const second = host.current!;
    const ended = new Promise<number>((resolve) => second.once('exit', resolve));
    await host.stop();
    await ended;
    expect(host.current).toBeNull();
    expect(log.lines.map((l) => l.msg)).toContain('webhook delivery worker stopped');
    if (linux) expect(threads('self').filter((t) => t.name === DELIVERY_THREAD_NAME)).toHaveLength(0);
    // Only the ended thread was an error; nothing from the worker itself.
    expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(1);
  }, 60_000);
});

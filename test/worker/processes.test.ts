import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GuardedSender } from '../../src/adapters/webhook-http/guarded-sender.ts';
import { webhookPolicy } from '../../src/container.ts';
import { systemClock } from '../../src/core/clock.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { DeliveryWorker } from '../../src/worker/delivery-worker.ts';
import { BIN, runCli, startServer, stopServer } from '../cli/run-cli.ts';
import { DIALECTS } from '../support/databases.ts';
import {
  eventually,
  memoryLog,
  type Receiver,
  reviews,
  startReceiver,
  webhookContext,
  workerFor,
} from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'purerank-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `purerank worker` as an operator runs it (bin/purerank.js, from source), resolved once it says it runs. */
function spawnWorker(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'worker'], {
      env: { ...process.env, PURERANK_FROM_SOURCE: '1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('webhook worker is running')) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${out}`));
    });
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    child.removeAllListeners('exit');
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe.each(DIALECTS)('webhook delivery across processes (%s)', (dialect) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('purerank serve delivers by default, warns about private targets, and delivers events another process (the CLI) wrote within 2 s', async () => {
    const ctx = await webhookContext(dialect);
    cleanups.push(() => ctx.close());
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/hooks'), events: ['review.new'] });
    // The default poll and worker settings; only private targets allowed (the receiver is local).
    const env = {
      DATABASE_URL: ctx.databaseUrl,
      PURERANK_SEED_DEMO: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    };
    const server = await startServer(env);
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) await stopServer(server.child);
    });
    expect(server.output()).toContain(
      'WEBHOOK_ALLOW_PRIVATE_URLS is on: webhooks may target http and private addresses (development and tests only)',
    );
    expect(server.output()).toContain('Webhook delivery: on, in this process');

    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      const file = join(dir, `${dialect}-${i}.jsonl`);
      writeFileSync(
        file,
        reviews('alpha', 1)
          .map((r) => JSON.stringify(r))
          .join('\n'),
      );
      const before = receiver.received.length;
      const r = await runCli(['import', file], env);
      expect(r.code, r.stderr).toBe(0);
      // The import has committed by the time its process exits (the delivery may come earlier).
      const committed = performance.now();
      await eventually('the imported event delivered', () => receiver.received.length > before, 5_000);
      latencies.push(Math.max(0, receiver.received[before]!.at - committed));
    }
    console.info(
      `[worker] ${dialect}: CLI commit → delivery by serve's worker: ${latencies.map(Math.round).join(', ')} ms`,
    );
    expect(median(latencies)).toBeLessThan(2_000);
    expect(new Set(receiver.received.map((r) => r.eventId)).size).toBe(3);
    expect(await stopServer(server.child)).toBe(0);
  }, 60_000);

  it('two workers on one database never make the same attempt twice', async () => {
    // Each message fails its first attempt and succeeds on its second: exactly two per message.
    const receiver = await startReceiver((_r, nth) => ({ status: nth === 1 ? 500 : 204 }));
    cleanups.push(() => receiver.close());
    const ctx = await webhookContext(dialect, { endpointConcurrency: 3, concurrency: 8 });
    cleanups.push(() => ctx.close());
    const endpoints = [];
    for (const path of ['/a', '/b', '/c']) {
      endpoints.push(
        await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url(path), events: ['*'] }),
      );
    }
    // The second worker has a store (its own connections) and a sender of its own, as another process would.
    const store2 = await openStore(parseDatabaseUrl(ctx.databaseUrl));
    const sender2 = new GuardedSender({ allowPrivate: true });
    cleanups.push(async () => {
      await sender2.close();
      await store2.close();
    });
    const w = ctx.container.config.webhooks;
    const log = memoryLog();
    const one = workerFor(ctx, { log });
    const two = new DeliveryWorker(
      {
        store: store2.deliveries,
        sender: sender2,
        clock: systemClock,
        policy: webhookPolicy(ctx.container.config),
        log,
      },
      {
        pollMs: w.pollMs,
        concurrency: w.concurrency,
        endpointConcurrency: w.endpointConcurrency,
        accountConcurrency: w.accountConcurrency,
        leaseMs: w.timeoutMs + 1_000,
      },
    );
    cleanups.push(() => Promise.all([one.stop(), two.stop()]));
    one.start();
    two.start();
    const N = 150;
    // In three commits, so both workers see new events while they deliver earlier ones.
    for (let i = 0; i < 3; i++) await ctx.load(reviews('alpha', N / 3));
    await eventually(
      'every message delivered',
      () => one.stats.succeeded + two.stats.succeeded === 3 * N,
      20_000,
    );
    await Promise.all([one.stop(), two.stop()]);

    // Each event fanned out once (the cursor's lock), and each attempt made once (the claims).
    expect(one.stats.eventsFannedOut + two.stats.eventsFannedOut).toBe(N);
    expect(one.stats.messagesCreated + two.stats.messagesCreated).toBe(3 * N);
    expect(one.stats.claimed).toBeGreaterThan(0);
    expect(two.stats.claimed).toBeGreaterThan(0);
    for (const path of ['/a', '/b', '/c']) {
      const counts = receiver.countById(path);
      expect(counts.size).toBe(N);
      expect([...counts.values()].filter((n) => n !== 2)).toEqual([]);
    }
    const perMessage = await ctx.container.store.kysely
      .selectFrom('webhook_attempts')
      .select((eb) => ['message_id', eb.fn.countAll<number>().as('n')])
      .groupBy('message_id')
      .execute();
    expect(perMessage).toHaveLength(3 * N);
    expect(perMessage.filter((r) => Number(r.n) !== 2)).toEqual([]);
    const statuses = await ctx.container.store.kysely
      .selectFrom('webhook_messages')
      .select(['status', 'attempts'])
      .execute();
    expect(statuses.filter((m) => m.status !== 'succeeded' || Number(m.attempts) !== 2)).toEqual([]);
    expect(log.lines.filter((l) => l.level !== 'info')).toEqual([]);
  }, 60_000);

  it('a worker killed (SIGKILL) in the middle of deliveries loses nothing: restarted, every event arrives (duplicates counted)', async () => {
    const receiver: Receiver = await startReceiver(async () => {
      await new Promise((r) => setTimeout(r, 20));
      return { status: 204 };
    });
    cleanups.push(() => receiver.close());
    const ctx = await webhookContext(dialect);
    cleanups.push(() => ctx.close());
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/a'), events: ['*'] });
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/b'), events: ['review.new'] });
    const N = 400;
    await ctx.load(reviews('alpha', N));
    const events = await ctx.container.store.outbox.list({ limit: N + 10 });
    expect(events).toHaveLength(N);
    const env = {
      DATABASE_URL: ctx.databaseUrl,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_POLL_MS: '50',
      // A short attempt limit: the dead worker's claims lapse 2.5 s after it claimed them.
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_ENDPOINT_CONCURRENCY: '8',
    };

    const first = await spawnWorker(env);
    cleanups.push(async () => {
      first.child.kill('SIGKILL');
    });
    await eventually('deliveries under way', () => receiver.received.length >= 150, 20_000);
    first.child.kill('SIGKILL');
    await exited(first.child);
    const atKill = receiver.received.length;
    expect(atKill).toBeLessThan(2 * N);
    // What the dead worker held: claimed, its outcome not written. Only these may arrive twice.
    const held = await ctx.container.store.kysely
      .selectFrom('webhook_messages')
      .select('id')
      .where('status', '=', 'pending')
      .where('claim_token', 'is not', null)
      .execute();

    const second = await spawnWorker(env);
    cleanups.push(async () => {
      second.child.kill('SIGKILL');
    });
    await eventually(
      'every event at both endpoints',
      () => receiver.countById('/a').size === N && receiver.countById('/b').size === N,
      20_000,
    );
    // Every message settled as delivered, none left claimed.
    await eventually('every outcome written', async () => {
      const left = await ctx.container.store.kysely
        .selectFrom('webhook_messages')
        .select('id')
        .where('status', '!=', 'succeeded')
        .execute();
      return left.length === 0;
    });
    const duplicates = [...receiver.countById('/a').values(), ...receiver.countById('/b').values()].reduce(
      (sum, n) => sum + n - 1,
      0,
    );
    console.info(
      `[worker] ${dialect}: killed after ${atKill} of ${2 * N} deliveries holding ${held.length} claims; after the restart all arrived, ${duplicates} twice`,
    );
    expect(duplicates).toBeLessThanOrEqual(held.length);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
    expect(second.output()).not.toMatch(/"level":50/);
  }, 60_000);
});

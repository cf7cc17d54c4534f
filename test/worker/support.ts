import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookConfig } from '../../src/config/config.ts';
import { type Config, loadConfig } from '../../src/config/config.ts';
import { webhookPolicy } from '../../src/container.ts';
import { type Clock, systemClock } from '../../src/core/clock.ts';
import {
  DeliveryWorker,
  type DeliveryWorkerOptions,
  type WorkerLog,
} from '../../src/worker/delivery-worker.ts';
import { createTestContext, type TestContext } from '../support/context.ts';
import type { Dialect } from '../support/databases.ts';

/** One request a test receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when it arrived. */
  at: number;
  /** The webhook-id header (the event id). */
  eventId: string;
}

/** How the receiver answers: a status (and headers), or never (`hang`: the attempt times out). */
export type Reply = { status: number; headers?: Record<string, string> } | { hang: true };

export interface Receiver {
  url(path: string): string;
  received: Received[];
  /** Requests per event id at `path` (or everywhere). */
  countById(path?: string): Map<string, number>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records what arrives and answers as `reply` says. */
export async function startReceiver(
  reply: (r: Received, nth: number) => Reply | Promise<Reply> = () => ({ status: 204 }),
): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        eventId: String(req.headers['webhook-id'] ?? ''),
      };
      received.push(r);
      const nth = received.filter((x) => x.path === r.path && x.eventId === r.eventId).length;
      const answer = await reply(r, nth);
      if ('hang' in answer) {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    countById(path) {
      const m = new Map<string, number>();
      for (const r of received)
        if (path === undefined || r.path === path) m.set(r.eventId, (m.get(r.eventId) ?? 0) + 1);
      return m;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Test webhook settings: private targets allowed, short retries, a quick poll. */
export function webhookConfig(over: Partial<WebhookConfig> = {}): WebhookConfig {
  return {
    ...loadConfig({}).webhooks,
    allowPrivateUrls: true,
    retrySchedule: [50, 100, 200],
    timeoutMs: 2_000,
    pollMs: 50,
    ...over,
  };
}

/** A log that keeps what the worker says, so a test can show it (and check no error was logged). */
export function memoryLog(): WorkerLog & { lines: { level: string; msg: string; fields: object }[] } {
  const lines: { level: string; msg: string; fields: object }[] = [];
  const at = (level: string) => (fields: object, msg: string) => {
    lines.push({ level, msg, fields });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * The test context (real database, real container) with `owner` and `other`, two enterprise
 * accounts; vendors `alpha` (owned by owner), `beta` (owned by other) and `gamma` (unclaimed).
 */
export async function webhookContext(
  dialect: Dialect,
  webhooks: Partial<WebhookConfig> = {},
): Promise<TestContext & { ownerId: number; otherId: number }> {
  const config: Partial<Config> = { webhooks: webhookConfig(webhooks) };
  const ctx = await createTestContext(dialect, { config });
  const r = await ctx.load([
    { type: 'account', name: 'owner', plan: 'enterprise' },
    { type: 'account', name: 'other', plan: 'enterprise' },
    { type: 'vendor', slug: 'alpha', name: 'Alpha' },
    { type: 'vendor', slug: 'beta', name: 'Beta' },
    { type: 'vendor', slug: 'gamma', name: 'Gamma' },
    { type: 'claim', vendorSlug: 'alpha', account: 'owner' },
    { type: 'claim', vendorSlug: 'beta', account: 'other' },
  ]);
  if (!r.ok) throw new Error(`fixture import failed: ${JSON.stringify(r)}`);
  const owner = await ctx.container.store.accounts.findByName('owner');
  const other = await ctx.container.store.accounts.findByName('other');
  return Object.assign(ctx, { ownerId: owner!.id, otherId: other!.id });
}

let reviewSeq = 0;

/** `n` reviews of `vendor`: one `review.new` event each (the vendors are unscored: no score event). */
export function reviews(vendor: string, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, () => ({
    type: 'review',
    id: `rev-${process.pid}-${++reviewSeq}`,
    vendorSlug: vendor,
    rating: 4,
    title: 'fine',
    body: 'arrived quickly',
    author: 'Jo',
    createdAt: '2026-05-01T00:00:00.000Z',
  }));
}

/** A worker over the context's store and sender, on the system clock unless told otherwise. */
export function workerFor(
  ctx: TestContext,
  opts: { clock?: Clock; log?: WorkerLog; options?: Partial<DeliveryWorkerOptions> } = {},
): DeliveryWorker {
  const w = ctx.container.config.webhooks;
  return new DeliveryWorker(
    {
      store: ctx.container.store.deliveries,
      sender: ctx.container.sender,
      clock: opts.clock ?? systemClock,
      policy: webhookPolicy(ctx.container.config),
      log: opts.log ?? memoryLog(),
    },
    {
      pollMs: w.pollMs,
      concurrency: w.concurrency,
      endpointConcurrency: w.endpointConcurrency,
      accountConcurrency: w.accountConcurrency,
      leaseMs: w.timeoutMs + 1_000,
      stopGraceMs: 1_000,
      ...opts.options,
    },
  );
}

/** Polls `check` until it holds (returns truthy) or `ms` pass; then fails with `what`. */
export async function eventually<T>(
  what: string,
  check: () => T | Promise<T>,
  ms = 5_000,
): Promise<NonNullable<T>> {
  const until = performance.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (performance.now() > until) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

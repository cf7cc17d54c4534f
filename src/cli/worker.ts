import type { Command } from 'commander';
import { loadConfig } from '../config/config.ts';
import {
  createContainer,
  createDeliveryWorker,
  createWebhookSender,
  PRIVATE_URLS_WARNING,
} from '../container.ts';
import type { WorkerLog } from '../worker/delivery-worker.ts';

export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      'Deliver webhooks without serving HTTP: fan new events out to endpoints, send, retry. ' +
        'Runs until SIGTERM or SIGINT; `serve` runs the same worker unless WEBHOOK_WORKER=false.',
    )
    .action(async () => {
      const config = loadConfig();
      const log = jsonLog(config.logLevel);
      // The CLI's container (the store, migrated) and a sender of its own: it serves no requests.
      const container = await createContainer(config, { purpose: 'cli' });
      const sender = createWebhookSender(config);
      const worker = createDeliveryWorker(config, container.store, container.clock, sender, log);
      if (config.webhooks.allowPrivateUrls) log.warn({}, PRIVATE_URLS_WARNING);
      const signal = new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      worker.start();
      process.stdout.write(
        `PureRank webhook worker is running (${container.store.dialect}); SIGTERM or Ctrl-C stops it\n`,
      );
      const received = await signal;
      log.info({ signal: received }, 'shutting down');
      // The worker's own grace is 5 s; a store that does not close in time does not keep it alive.
      setTimeout(() => process.exit(1), 10_000).unref();
      try {
        await worker.stop();
      } finally {
        await sender.close();
        await container.close();
      }
    });
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
const PINO_LEVEL: Record<(typeof LEVELS)[number], number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

/**
 * One JSON object a line on stderr, in pino's shape (level number, time, msg), so the worker's log
 * reads like the service's; `silent` writes nothing.
 */
function jsonLog(level: string): WorkerLog {
  const min = level === 'silent' ? Number.POSITIVE_INFINITY : (PINO_LEVEL[level as 'info'] ?? 30);
  const line = (n: number) => (fields: object, msg: string) => {
    if (n < min) return;
    const out: Record<string, unknown> = { level: n, time: Date.now(), pid: process.pid };
    for (const [k, v] of Object.entries(fields)) out[k] = v instanceof Error ? describeError(v) : v;
    out.msg = msg;
    process.stderr.write(`${JSON.stringify(out)}\n`);
  };
  return { info: line(30), warn: line(40), error: line(50) };
}

const describeError = (e: Error) => ({
  type: e.name,
  message: e.message,
  ...((e as NodeJS.ErrnoException).code ? { code: (e as NodeJS.ErrnoException).code } : {}),
});

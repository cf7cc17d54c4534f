import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread, nameThisThread } from '../adapters/threads/this-thread.ts';
import { systemClock } from '../core/clock.ts';
import { createDeliveryWorker, createWebhookSender } from '../delivery-container.ts';
import { openStore, parseDatabaseUrl } from '../storage/open-store.ts';
import {
  DELIVERY_THREAD_NAME,
  type DeliveryAttempts,
  type DeliveryThreadData,
  type FromDeliveryThread,
  type SentError,
  STATS_EVERY_MS,
  type ToDeliveryThread,
} from './delivery-host.ts';
import type { WorkerLog } from './delivery-worker.ts';

/**
 * The webhook delivery worker's thread inside `purerank serve` (delivery-host.ts starts it). Its own
 * event loop, its own database connection and its own HTTP client, at a lower CPU priority than the
 * thread that answers requests: the worker's database calls are synchronous (better-sqlite3), and
 * on the main thread a backlog's drain took most of its CPU from the requests (docs/webhooks.md).
 */

if (!parentPort) throw new Error('delivery-thread.ts is the entry of a worker thread (delivery-host.ts)');
const port = parentPort;
const { config, nice } = workerData as DeliveryThreadData;

const send = (m: FromDeliveryThread) => port.postMessage(m);

function plain(fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Error) {
      const code = (v as NodeJS.ErrnoException).code;
      const e: SentError = {
        $error: { type: v.name, message: v.message, ...(v.stack ? { stack: v.stack } : {}) },
      };
      if (typeof code === 'string') e.$error.code = code;
      out[k] = e;
    } else out[k] = v;
  }
  return out;
}

const log: WorkerLog = {
  info: (fields, msg) => send({ kind: 'log', level: 'info', fields: plain(fields), msg }),
  warn: (fields, msg) => send({ kind: 'log', level: 'warn', fields: plain(fields), msg }),
  error: (fields, msg) => send({ kind: 'log', level: 'error', fields: plain(fields), msg }),
};

// Lowered before it is named: whoever finds the thread by its name (an operator, the test) sees
// its final priority, never the moment between the two.
const priority = lowerThisThread(nice);
nameThisThread(DELIVERY_THREAD_NAME);
// The main thread has migrated the schema before it started this thread.
const store = await openStore(parseDatabaseUrl(config.databaseUrl), {
  method: config.scoring,
  migrate: false,
});
const sender = createWebhookSender(config);
const worker = createDeliveryWorker(config, store, systemClock, sender, log);

// The attempts go to the host (its metrics) when they changed: one small message a second at most.
let reported: DeliveryAttempts = { succeeded: 0, failed: 0 };
const report = (): void => {
  const { succeeded, failed } = worker.stats;
  if (succeeded === reported.succeeded && failed === reported.failed) return;
  reported = { succeeded, failed };
  send({ kind: 'stats', attempts: reported });
};
const reporter = setInterval(report, STATS_EVERY_MS);
// The thread ends when nothing else holds its event loop (see stop below).
reporter.unref();

let stopping = false;
port.on('message', (m: ToDeliveryThread) => {
  if (m.kind !== 'stop' || stopping) return;
  stopping = true;
  void (async () => {
    await worker.stop();
    clearInterval(reporter);
    report();
    await sender.close().catch((err: unknown) => log.error({ err }, 'closing the webhook sender failed'));
    await store.close().catch((err: unknown) => log.error({ err }, 'closing the delivery store failed'));
    // Nothing else holds the event loop: the thread ends.
    port.close();
  })();
});

worker.start();
send({ kind: 'started', nice: priority });

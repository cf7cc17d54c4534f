import { GuardedSender } from './adapters/webhook-http/guarded-sender.ts';
import type { Config } from './config/config.ts';
import type { Clock } from './core/clock.ts';
import type { WebhookSender } from './core/webhooks/model.ts';
import type { OpenedStore } from './storage/open-store.ts';
import { DeliveryWorker, leaseFor, type WorkerLog } from './worker/delivery-worker.ts';

/**
 * The delivery side of the composition root (container.ts re-exports it): the webhook sender, the
 * retry policy and the delivery worker built from configuration. Apart from container.ts so that
 * `serve`'s delivery thread (worker/delivery-thread.ts) loads only these modules, not the whole
 * service's (the PDF pool, the catalog, the rate limiters): that doubled the thread's memory.
 */

/** The guarded outbound client; `purerank worker`, which serves nothing, builds its own with this. */
export function createWebhookSender(config: Readonly<Config>): WebhookSender {
  return new GuardedSender({
    allowPrivate: config.webhooks.allowPrivateUrls,
    // Every attempt in flight may target one host: keep their connections for the next ones.
    maxFreeSockets: Math.max(16, config.webhooks.concurrency),
  });
}

/** Logged at the start of `serve` and `purerank worker` when private targets are allowed. */
export const PRIVATE_URLS_WARNING =
  'WEBHOOK_ALLOW_PRIVATE_URLS is on: webhooks may target http and private addresses (development and tests only)';

/**
 * The webhook delivery worker (src/worker/) over a store, with the sender and the one retry policy:
 * inside `serve` (the service's sender) and alone as `purerank worker`.
 */
export function createDeliveryWorker(
  config: Readonly<Config>,
  store: OpenedStore,
  clock: Clock,
  sender: WebhookSender,
  log: WorkerLog,
): DeliveryWorker {
  return new DeliveryWorker(
    { store: store.deliveries, sender, clock, policy: webhookPolicy(config), log },
    {
      pollMs: config.webhooks.pollMs,
      concurrency: config.webhooks.concurrency,
      endpointConcurrency: config.webhooks.endpointConcurrency,
      accountConcurrency: config.webhooks.accountConcurrency,
      leaseMs: leaseFor(config.webhooks.timeoutMs),
    },
  );
}

/** The one retry and disable policy, from configuration. */
export const webhookPolicy = (config: Readonly<Config>) => ({
  retrySchedule: config.webhooks.retrySchedule,
  timeoutMs: config.webhooks.timeoutMs,
  disableAfterMs: config.webhooks.disableAfterMs,
});

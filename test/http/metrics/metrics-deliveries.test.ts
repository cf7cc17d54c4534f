import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryHost } from '../../../src/worker/delivery-host.ts';
import { ADMIN_TOKEN, bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { eventually, memoryLog, reviews, startReceiver, webhookContext } from '../../worker/support.ts';
import { parsePrometheusText, sampleValue } from './prometheus-text.ts';

/**
 * Webhook delivery attempts as /metrics shows them: counted in serve's delivery thread, reported
 * to its host over the thread's message channel, added up across a thread's restart.
 */
describe.each(DIALECTS)('/metrics: webhook delivery attempts from the delivery thread (%s)', (dialect) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('counts successes and failures by outcome, across a restart of the thread', async () => {
    const ctx = await webhookContext(dialect);
    cleanups.push(() => ctx.close());
    const receiver = await startReceiver((r) => ({ status: r.path === '/bad' ? 500 : 204 }));
    cleanups.push(() => receiver.close());
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/ok'), events: ['*'] });
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/bad'), events: ['*'] });
    const host = new DeliveryHost(ctx.container.config, memoryLog(), { restartDelayMs: 50 });
    cleanups.push(() => host.stop());
    ctx.app.metrics.countDeliveriesFrom(() => host.stats);
    host.start();

    const at = (path: string) => receiver.received.filter((r) => r.path === path).length;
    const scrape = async () => {
      const res = await ctx.app.inject({ url: '/metrics', headers: bearer(ADMIN_TOKEN) });
      const samples = parsePrometheusText(res.body);
      const name = 'purerank_webhook_delivery_attempts_total';
      return {
        succeeded: sampleValue(samples, name, { outcome: 'succeeded' }),
        failed: sampleValue(samples, name, { outcome: 'failed' }),
      };
    };
    // Each event: one attempt that succeeds at /ok, and at /bad the first try and 3 retries
    // (the test schedule's), all failing.
    await ctx.load(reviews('alpha', 3));
    await eventually(
      'the attempts reported',
      async () => {
        const m = await scrape();
        return m.succeeded === 3 && m.failed === 12 && at('/ok') === 3 && at('/bad') === 12;
      },
      20_000,
    );

    // The thread ends unexpectedly and is started again: the counts go on from where they were.
    await host.current!.terminate();
    await eventually('a new thread running', () => host.restarts === 1 && host.current !== null, 10_000);
    await ctx.load(reviews('alpha', 2));
    await eventually(
      'the new thread’s attempts added',
      async () => {
        const m = await scrape();
        return m.succeeded === 5 && m.failed === 20 && at('/ok') === 5 && at('/bad') === 20;
      },
      20_000,
    );
    expect(await scrape()).toEqual({ succeeded: 5, failed: 20 });
  }, 60_000);
});

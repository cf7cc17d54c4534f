import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryWorker } from '../../../src/container.ts';
import type { DeliveryWorker } from '../../../src/worker/delivery-worker.ts';
import { DIALECTS } from '../../support/databases.ts';
import { createEndpoint, privateUrls, Receiver, type Setup, setup } from './helpers.ts';

const silent = { info() {}, warn() {}, error() {} };

/** Waits until `check` holds (the worker runs on its own), or fails after `ms`. */
async function eventually<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/*
 * The API with the delivery worker running (src/worker/), as `purerank serve` runs it: an event of
 * an owned vendor reaches the endpoint, the delivery log and the event log say so, and a failed
 * message comes back with recover. Retries are off (an empty schedule), so one failure is final.
 */
describe.each(DIALECTS)('webhooks end to end with the delivery worker (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  let worker: DeliveryWorker;
  beforeAll(async () => {
    s = await setup(dialect, privateUrls({ retrySchedule: [], pollMs: 20 }));
    rx = await Receiver.start();
    const now = new Date(s.ctx.clock.now()).toISOString();
    const loaded = await s.ctx.load([
      { type: 'lab', slug: 'lab-one', name: 'Lab One', trusted: true },
      {
        type: 'peptide',
        slug: 'bpc-157',
        name: 'BPC-157',
        category: 'healing',
        molecularWeight: '1419.5 g/mol',
      },
      { type: 'vendor', slug: 'apex', name: 'Apex Labs', location: 'USA', verified: true },
      { type: 'claim', vendorSlug: 'apex', account: 'acct-a' },
      {
        type: 'batch',
        vendorSlug: 'apex',
        batchId: 'A-1',
        peptideSlug: 'bpc-157',
        purity: 99.3,
        lab: 'lab-one',
        testMethod: 'HPLC',
        testedAt: now,
        status: 'approved',
      },
    ]);
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    const c = s.ctx.container;
    worker = createDeliveryWorker(c.config, c.store, c.clock, c.sender, silent);
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await rx?.close();
    await s?.ctx.close();
  });

  const override = (value: number) =>
    s.ctx.load([{ type: 'override', vendorSlug: 'apex', field: 'score', value, reason: 'e2e' }]);
  const deliveries = async (id: string, q = '') =>
    (await s.a.call('GET', `/webhooks/${id}/deliveries${q}`)).json();

  it('an event of an owned vendor is delivered, signed; a failed one comes back with recover', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['score.changed'] });
    await override(40);
    const first = await eventually('the first delivery', async () => rx.received[0]);
    const payload = new Webhook(e.secret).verify(first.body, first.headers as Record<string, string>) as {
      id: string;
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toMatchObject({ type: 'score.changed', data: { vendor_slug: 'apex', new_score: 40 } });

    const log = await eventually('the success in the log', async () => {
      const l = await deliveries(e.id, '?status=succeeded');
      return l.total === 1 && l;
    });
    expect(log.data[0]).toMatchObject({
      event_id: payload.id,
      event_type: 'score.changed',
      attempt_count: 1,
      next_attempt_at: null,
      attempts: [{ http_status: 204, error: null, trigger: 'scheduled' }],
    });
    const events = (await s.a.call('GET', '/events')).json();
    expect(events.data[0]).toMatchObject({
      id: payload.id,
      delivery_success: true,
      deliveries: { succeeded: 1, pending: 0, failed: 0 },
    });

    // The receiver fails: with no retries the message is failed at once, and the event log says so.
    rx.answer = { status: 500 };
    const since = new Date(s.ctx.clock.now()).toISOString();
    await override(41);
    const failed = await eventually('the failure', async () => {
      const l = await deliveries(e.id, '?status=failed');
      return l.total === 1 && l.data[0];
    });
    expect(failed.attempts).toEqual([expect.objectContaining({ http_status: 500, trigger: 'scheduled' })]);
    const open = (await s.a.call('GET', '/events?delivery_success=false')).json();
    expect(open.data.map((x: { id: string }) => x.id)).toEqual([failed.event_id]);

    rx.answer = { status: 204 };
    const heard = rx.received.length;
    expect((await s.a.call('POST', `/webhooks/${e.id}/recover`, { since })).json()).toEqual({ requeued: 1 });
    const done = await eventually('the recovered delivery', async () => {
      const l = await deliveries(e.id, '?status=succeeded');
      return l.total === 2 && l.data.find((d: { id: string }) => d.id === failed.id);
    });
    expect(done.attempts.map((a: { http_status: number }) => a.http_status)).toEqual([500, 204]);
    const again = rx.received.slice(heard);
    expect(again.map((r) => r.headers['webhook-id'])).toEqual([failed.event_id]);
    expect(
      new Webhook(e.secret).verify(again[0]!.body, again[0]!.headers as Record<string, string>),
    ).toMatchObject({
      data: { new_score: 41 },
    });
    expect((await s.a.call('GET', '/events?delivery_success=false')).json().total).toBe(0);
  });
});

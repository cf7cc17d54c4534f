import { randomBytes } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import { webhookPayload } from '../../../src/core/events/envelope.ts';
import type { StoredEvent } from '../../../src/core/events/model.ts';
import { AccountEventListA } from '../../../src/http/variant-a/webhook-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  type Client,
  clientFor,
  createEndpoint,
  expectError,
  Receiver,
  type Setup,
  setup,
} from './helpers.ts';

const LAB = 'janoshik';

/** apex is owned by acct-a, borealis by acct-b, bare by nobody; apex and borealis are scored. */
const fixture = (iso: (daysAgo: number) => string): Record<string, unknown>[] => [
  { type: 'lab', slug: LAB, name: 'Janoshik Analytical', trusted: true },
  { type: 'peptide', slug: 'bpc-157', name: 'BPC-157', category: 'healing', molecularWeight: '1419.5 g/mol' },
  { type: 'vendor', slug: 'apex', name: 'Apex Labs', location: 'USA', verified: true },
  { type: 'vendor', slug: 'borealis', name: 'Borealis Research', location: 'Canada', verified: true },
  { type: 'vendor', slug: 'bare', name: 'Bare' },
  { type: 'claim', vendorSlug: 'apex', account: 'acct-a' },
  { type: 'claim', vendorSlug: 'borealis', account: 'acct-b' },
  ...['apex', 'borealis'].map((vendorSlug) => ({
    type: 'batch',
    vendorSlug,
    batchId: `${vendorSlug.toUpperCase()}-1`,
    peptideSlug: 'bpc-157',
    purity: 99.1,
    lab: LAB,
    testMethod: 'HPLC',
    testedAt: iso(10),
    status: 'approved',
  })),
  ...['apex', 'borealis', 'bare'].map((vendorSlug) => ({
    type: 'review',
    id: `rev-${vendorSlug}`,
    vendorSlug,
    rating: 4,
    title: 'Good',
    body: 'Fine.',
    author: 'Jo',
    createdAt: iso(5),
  })),
];

type EventItem = {
  id: string;
  type: string;
  created: number;
  data: { vendor_slug: string } & Record<string, unknown>;
  vendor_slug: string;
  delivery_success: boolean | null;
  deliveries: { succeeded: number; pending: number; failed: number };
};

describe.each(DIALECTS)('GET /v1/events: the account’s events (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  let outbox: StoredEvent[];
  const list = async (c: Client, q = ''): Promise<{ data: EventItem[]; total: number; page: number }> => {
    const res = await c.call('GET', `/events${q}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect([...Value.Errors(AccountEventListA, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    return body;
  };

  beforeAll(async () => {
    s = await setup(dialect);
    rx = await Receiver.start();
    const now = s.ctx.clock.now();
    const loaded = await s.ctx.load(fixture((d) => new Date(now - d * DAY_MS).toISOString()));
    expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
    s.ctx.clock.advance(1000);
    // An override of the composite moves apex's score: a score.changed event (docs/events.md).
    const moved = await s.ctx.load([
      { type: 'override', vendorSlug: 'apex', field: 'score', value: 42, reason: 'test' },
    ]);
    expect(moved.ok, JSON.stringify(moved)).toBe(true);
    outbox = await s.ctx.container.store.outbox.list({ limit: 1000 });
  });
  afterAll(async () => {
    await rx?.close();
    await s?.ctx.close();
  });

  it('lists the events of the vendors the account owns, newest first, as the webhook payload has them', async () => {
    const mine = outbox.filter((e) => e.vendorSlug === 'apex').reverse();
    expect(mine.map((e) => e.type)).toEqual(['score.changed', 'review.new']);
    const body = await list(s.a);
    expect(body.total).toBe(2);
    expect(body.page).toBe(1);
    expect(body.data).toEqual(
      mine.map((e) => ({
        ...webhookPayload(e),
        vendor_slug: 'apex',
        delivery_success: null,
        deliveries: { succeeded: 0, pending: 0, failed: 0 },
      })),
    );
    const changed = body.data[0]!;
    expect(changed.data).toMatchObject({ vendor_slug: 'apex', new_score: 42, pillar_changes: {} });
    expect(changed.created).toBe(Math.floor(s.ctx.clock.now() / 1000));
    expect(changed.id).toMatch(/^evt_[0-9a-f]{32}$/);

    // B owns borealis: its own events, none of apex's; a vendor nobody owns is nobody's log.
    const theirs = await list(s.b);
    expect(theirs.data.map((e) => [e.type, e.vendor_slug])).toEqual([['review.new', 'borealis']]);
    const stranger = await clientFor(s.ctx, 'enterprise', 'acct-none');
    expect(await list(stranger)).toEqual({ data: [], total: 0, page: 1 });
    expect(outbox.some((e) => e.vendorSlug === 'bare')).toBe(true);
  });

  it('filters by type and vendor; a vendor the account does not own lists nothing', async () => {
    expect((await list(s.a, '?type=score.changed')).data.map((e) => e.type)).toEqual(['score.changed']);
    expect((await list(s.a, '?type=coa.approved')).total).toBe(0);
    expect((await list(s.a, '?vendor=apex')).total).toBe(2);
    expect((await list(s.a, '?vendor=apex&type=review.new')).data.map((e) => e.type)).toEqual(['review.new']);
    expect(await list(s.a, '?vendor=borealis')).toEqual({ data: [], total: 0, page: 1 });
    expect(await list(s.a, '?vendor=no-such-vendor')).toEqual({ data: [], total: 0, page: 1 });
    const p2 = await list(s.a, '?per_page=1&page=2');
    expect(p2.total).toBe(2);
    expect(p2.data.map((e) => e.type)).toEqual(['review.new']);
  });

  it('delivery_success sums up the messages: null without any, true when all succeeded, false otherwise; redeliver sends the real event', async () => {
    const good = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    const flaky = await createEndpoint(s.a, { url: `${rx.url}/flaky`, events: ['review.new'] });
    const [changed, review] = (await list(s.a)).data;
    // The delivery worker fans events out to endpoints (src/worker/); here its messages are
    // written as it would write them, so the event log's summary is tested on its own.
    const db = s.ctx.container.store.kysely;
    const message = (endpointId: string, e: EventItem, status: 'succeeded' | 'failed' | 'pending') => ({
      id: `dlv_${randomBytes(12).toString('hex')}`,
      endpoint_id: endpointId,
      event_id: e.id,
      event_type: e.type,
      payload: JSON.stringify({ id: e.id, type: e.type, created: e.created, data: e.data }),
      status,
      attempts: status === 'pending' ? 0 : 1,
      next_attempt_at: status === 'pending' ? s.ctx.clock.now() + 60_000 : null,
      claim_token: null,
      last_attempt_at: null,
      created_at: new Date(s.ctx.clock.now()).toISOString(),
    });
    const failedReview = message(flaky.id, review!, 'failed');
    await db
      .insertInto('webhook_messages')
      .values([message(good.id, changed!, 'succeeded'), message(good.id, review!, 'succeeded'), failedReview])
      .execute();

    const all = await list(s.a);
    expect(all.data.map((e) => [e.type, e.delivery_success, e.deliveries])).toEqual([
      ['score.changed', true, { succeeded: 1, pending: 0, failed: 0 }],
      ['review.new', false, { succeeded: 1, pending: 0, failed: 1 }],
    ]);
    expect((await list(s.a, '?delivery_success=true')).data.map((e) => e.type)).toEqual(['score.changed']);
    expect((await list(s.a, '?delivery_success=false')).data.map((e) => e.type)).toEqual(['review.new']);
    // B's events were delivered nowhere: neither true nor false.
    expect((await list(s.b, '?delivery_success=true')).total).toBe(0);
    expect((await list(s.b, '?delivery_success=false')).total).toBe(0);
    expect((await list(s.b)).data[0]!.delivery_success).toBeNull();

    // The failed message, sent again: the receiver gets the event itself, signed, and the log turns true.
    const res = await s.a.call('POST', `/webhooks/${flaky.id}/deliveries/${failedReview.id}/redeliver`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      event_id: review!.id,
      attempt: { http_status: 204, trigger: 'redeliver' },
    });
    const got = rx.last();
    expect(got.url).toBe('/hook/flaky');
    expect(got.headers['webhook-id']).toBe(review!.id);
    const payload = new Webhook(flaky.secret).verify(got.body, got.headers as Record<string, string>);
    expect(payload).toEqual({
      id: review!.id,
      type: 'review.new',
      created: review!.created,
      data: review!.data,
    });
    expect((await list(s.a, '?delivery_success=false')).total).toBe(0);
    expect((await list(s.a, '?delivery_success=true')).total).toBe(2);
  });

  it('a pro key gets 403 plan_required', async () => {
    const pro = await clientFor(s.ctx, 'pro', 'acct-events-pro');
    expectError(await pro.call('GET', '/events'), 403, 'plan_required');
  });

  it('reaches back 30 days', async () => {
    s.ctx.clock.advance(29 * DAY_MS);
    expect((await list(s.a)).total).toBe(2);
    s.ctx.clock.advance(2 * DAY_MS);
    expect(await list(s.a)).toEqual({ data: [], total: 0, page: 1 });
    s.ctx.clock.advance(-31 * DAY_MS);
  });
});

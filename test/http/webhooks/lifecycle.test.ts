import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../src/core/validation/formats.ts';
import {
  WebhookAttemptResultA,
  WebhookDeliveryListA,
  WebhookEndpointA,
  WebhookEndpointCreatedA,
  WebhookEndpointListA,
  WebhookSecretA,
} from '../../../src/http/variant-a/webhook-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  type Client,
  clientFor,
  createEndpoint,
  expectError,
  expectInvalid,
  expectRateHeaders,
  HEX24,
  ISO_MS,
  privateUrls,
  Receiver,
  SECRET,
  type Setup,
  secretBytes,
  setup,
} from './helpers.ts';

const expectSchema = (schema: TSchema, body: unknown) => {
  expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
};

const ENDPOINT_KEYS = [
  'id',
  'url',
  'events',
  'description',
  'enabled',
  'disabled_reason',
  'disabled_at',
  'failing_since',
  'created_at',
  'updated_at',
];

/** Every webhook route, with a body where it takes one; ids filled in by the caller. */
const everyRoute = (id: string, dlv: string, since: string) =>
  [
    ['POST', '/webhooks', { url: 'http://127.0.0.1:9/x', events: ['*'] }],
    ['GET', '/webhooks'],
    ['GET', `/webhooks/${id}`],
    ['PATCH', `/webhooks/${id}`, { description: 'taken over' }],
    ['DELETE', `/webhooks/${id}`],
    ['POST', `/webhooks/${id}/rotate_secret`, { overlap_seconds: 0 }],
    ['POST', `/webhooks/${id}/test`],
    ['GET', `/webhooks/${id}/deliveries`],
    ['POST', `/webhooks/${id}/deliveries/${dlv}/redeliver`],
    ['POST', `/webhooks/${id}/recover`, { since }],
    ['GET', '/events'],
  ] as const;

describe.each(DIALECTS)('webhooks: endpoints, secrets, plans and owners (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  beforeAll(async () => {
    s = await setup(dialect, privateUrls({ maxEndpointsPerAccount: 4 }));
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx?.close();
    await s?.ctx.close();
  });

  it('the whole life of an endpoint: create, list, get, change, disable, rotate, test, log, delete', async () => {
    const { a, ctx } = s;
    const t0 = new Date(ctx.clock.now()).toISOString();
    const res = await a.call('POST', '/webhooks', {
      url: rx.url,
      events: ['score.changed', 'coa.approved', 'score.changed'],
      description: 'rankings page',
    });
    expect(res.statusCode, res.body).toBe(201);
    expectRateHeaders(res);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expectSchema(WebhookEndpointCreatedA, created);
    expect(Object.keys(created)).toEqual([...ENDPOINT_KEYS, 'secret']);
    expect(created).toEqual({
      id: expect.stringMatching(/^ep_[0-9a-f]{24}$/),
      url: rx.url,
      // Duplicates dropped, order kept.
      events: ['score.changed', 'coa.approved'],
      description: 'rankings page',
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: t0,
      updated_at: t0,
      secret: expect.stringMatching(SECRET),
    });
    const { secret, ...endpoint } = created;
    const id: string = endpoint.id;

    const list = await a.call('GET', '/webhooks');
    expect(list.statusCode).toBe(200);
    expectRateHeaders(list);
    expectSchema(WebhookEndpointListA, list.json());
    expect(list.json()).toEqual({ data: [endpoint], total: 1 });
    const one = await a.call('GET', `/webhooks/${id}`);
    expect(one.statusCode).toBe(200);
    expectSchema(WebhookEndpointA, one.json());
    expect(one.json()).toEqual(endpoint);

    s.ctx.clock.advance(1000);
    const t1 = new Date(ctx.clock.now()).toISOString();
    const changed = await a.call('PATCH', `/webhooks/${id}`, { events: ['*'], description: '' });
    expect(changed.statusCode, changed.body).toBe(200);
    expectRateHeaders(changed);
    expectSchema(WebhookEndpointA, changed.json());
    expect(changed.json()).toEqual({ ...endpoint, events: ['*'], description: '', updated_at: t1 });

    const off = (await a.call('PATCH', `/webhooks/${id}`, { enabled: false })).json();
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'manual', disabled_at: t1 });
    const on = (await a.call('PATCH', `/webhooks/${id}`, { enabled: true })).json();
    expect(on).toMatchObject({
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    });

    const rotated = await a.call('POST', `/webhooks/${id}/rotate_secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expectRateHeaders(rotated);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expectSchema(WebhookSecretA, rotated.json());
    expect(rotated.json()).toEqual({
      secret: expect.stringMatching(SECRET),
      // The default overlap: a day.
      previous_secret_expires_at: new Date(ctx.clock.now() + 86_400_000).toISOString(),
    });
    expect(rotated.json().secret).not.toBe(secret);

    const tested = await a.call('POST', `/webhooks/${id}/test`);
    expect(tested.statusCode, tested.body).toBe(200);
    expectRateHeaders(tested);
    expectSchema(WebhookAttemptResultA, tested.json());
    expect(tested.json().attempt).toMatchObject({ http_status: 204, error: null, trigger: 'test' });
    expect(rx.received).toHaveLength(1);

    const log = await a.call('GET', `/webhooks/${id}/deliveries`);
    expect(log.statusCode).toBe(200);
    expectSchema(WebhookDeliveryListA, log.json());
    expect(log.json()).toMatchObject({
      total: 1,
      page: 1,
      data: [{ status: 'succeeded', attempt_count: 1 }],
    });

    // No answer but create and rotate ever carries a secret.
    for (const r of [list, one, changed, tested, log, await a.call('GET', '/webhooks')]) {
      expect(r.body).not.toContain('whsec_');
      expect(r.body).not.toContain('secret');
    }

    const gone = await a.call('DELETE', `/webhooks/${id}`);
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe('');
    expectRateHeaders(gone);
    expectError(await a.call('GET', `/webhooks/${id}`), 404, 'not_found');
    expectError(await a.call('GET', `/webhooks/${id}/deliveries`), 404, 'not_found');
    expectError(await a.call('DELETE', `/webhooks/${id}`), 404, 'not_found');
    expect((await a.call('GET', '/webhooks')).json()).toEqual({ data: [], total: 0 });
  });

  it('secrets: whsec_ + base64 of at least 24 random bytes, a new one per endpoint and per rotation', async () => {
    const c = await clientFor(s.ctx, 'enterprise', 'acct-secrets');
    const seen = new Set<string>();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await createEndpoint(c, { url: rx.url, events: ['*'] });
      ids.push(e.id);
      seen.add(e.secret);
    }
    for (const id of ids) {
      const r = (await c.call('POST', `/webhooks/${id}/rotate_secret`, { overlap_seconds: 0 })).json();
      expect(r.previous_secret_expires_at).toBeNull();
      seen.add(r.secret);
    }
    expect(seen.size).toBe(6);
    for (const secret of seen) {
      expect(secret).toMatch(SECRET);
      expect(secretBytes(secret)).toBeGreaterThanOrEqual(24);
    }
  });

  it('ETag on the reads: If-None-Match gives 304, and a change gives a new ETag', async () => {
    const c = await clientFor(s.ctx, 'enterprise', 'acct-etag');
    const e = await createEndpoint(c, { url: rx.url, events: ['*'] });
    for (const path of ['/webhooks', `/webhooks/${e.id}`, `/webhooks/${e.id}/deliveries`, '/events']) {
      const first = await c.call('GET', path);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag, path).toMatch(/^"/);
      const again = await c.call('GET', path, undefined, { 'if-none-match': etag });
      expect(again.statusCode, path).toBe(304);
      expectRateHeaders(again);
    }
    const before = (await c.call('GET', `/webhooks/${e.id}`)).headers.etag;
    s.ctx.clock.advance(1000);
    await c.call('PATCH', `/webhooks/${e.id}`, { description: 'new' });
    const after = await c.call('GET', `/webhooks/${e.id}`, undefined, { 'if-none-match': String(before) });
    expect(after.statusCode).toBe(200);
    expect(after.json().description).toBe('new');
  });

  it('an account has at most WEBHOOK_MAX_ENDPOINTS endpoints: one more is 409 and creates nothing', async () => {
    const c = await clientFor(s.ctx, 'enterprise', 'acct-full');
    for (let i = 0; i < 4; i++) await createEndpoint(c, { url: `${rx.url}/${i}`, events: ['*'] });
    const res = await c.call('POST', '/webhooks', { url: rx.url, events: ['*'] });
    expect(expectError(res, 409, 'conflict')).toContain('at most 4');
    expectRateHeaders(res);
    expect((await c.call('GET', '/webhooks')).json().total).toBe(4);
  });

  it.each([
    ['pro', 403],
    ['free', 403],
  ] as const)(
    'a %s key gets 403 plan_required on every route, and nothing is created',
    async (plan, status) => {
      const owner = await clientFor(s.ctx, 'enterprise', 'acct-plans');
      const e = await createEndpoint(owner, { url: rx.url, events: ['*'] });
      const dlv = (await owner.call('POST', `/webhooks/${e.id}/test`)).json().delivery_id;
      const heard = rx.received.length;
      // The gate answers before any lookup: an existing id and a body change nothing.
      const c: Client = await clientFor(s.ctx, plan, `acct-${plan}`);
      for (const [method, path, body] of everyRoute(e.id, dlv, new Date(0).toISOString())) {
        const res = await c.call(method, path, body);
        expect(expectError(res, status, 'plan_required'), `${method} ${path}`).toContain('Enterprise');
        expectRateHeaders(res);
      }
      // The endpoint is untouched and the plan's account has none: the gate stands before everything.
      const account = await s.ctx.container.store.accounts.findByName(`acct-${plan}`);
      expect(await s.ctx.container.store.webhooks.countEndpoints(account!.id)).toBe(0);
      expect((await owner.call('GET', '/webhooks')).json().data).toEqual([
        expect.objectContaining({ id: e.id, description: '', enabled: true }),
      ]);
      expect(rx.received.length).toBe(heard);
      await owner.call('DELETE', `/webhooks/${e.id}`);
    },
  );

  it('a custom-plan key may use webhooks (the plan gate lets custom through as Enterprise)', async () => {
    const c = await clientFor(s.ctx, 'custom', 'acct-custom');
    const res = await c.call('POST', '/webhooks', { url: rx.url, events: ['review.new'] });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("owner isolation: another account's endpoint is 404 on every route, exactly like a missing one", async () => {
    const { a, b } = s;
    const e = await createEndpoint(a, { url: rx.url, events: ['*'], description: 'mine' });
    const dlv = (await a.call('POST', `/webhooks/${e.id}/test`)).json().delivery_id;
    const before = (await a.call('GET', `/webhooks/${e.id}`)).json();
    const logBefore = (await a.call('GET', `/webhooks/${e.id}/deliveries`)).json();
    const heard = rx.received.length;
    const missing = `ep_${'0'.repeat(24)}`;
    const missingDlv = `dlv_${'0'.repeat(24)}`;
    const since = new Date(s.ctx.clock.now() - 1000).toISOString();

    for (const [method, path, body] of everyRoute(e.id, dlv, since)) {
      if (!path.includes(e.id)) continue;
      const theirs = await b.call(method, path, body);
      const none = await b.call(method, path.replace(e.id, missing).replace(dlv, missingDlv), body);
      const m1 = expectError(theirs, 404, 'not_found');
      const m2 = expectError(none, 404, 'not_found');
      expectRateHeaders(theirs);
      // The same words, but for the id: nothing tells B that A's endpoint exists.
      expect(m1.replace(e.id, 'ID'), `${method} ${path}`).toBe(m2.replace(missing, 'ID'));
    }
    expect((await b.call('GET', '/webhooks')).json()).toEqual({ data: [], total: 0 });
    // A's endpoint, secret and log are as they were; B's test sent nothing.
    expect((await a.call('GET', `/webhooks/${e.id}`)).json()).toEqual(before);
    expect((await a.call('GET', `/webhooks/${e.id}/deliveries`)).json()).toEqual(logBefore);
    expect(rx.received.length).toBe(heard);
    // And B's own endpoint is invisible to A the same way.
    const theirs = await createEndpoint(b, { url: rx.url, events: ['*'] });
    expectError(await a.call('GET', `/webhooks/${theirs.id}`), 404, 'not_found');
    expect((await a.call('GET', '/webhooks')).json().data.map((x: { id: string }) => x.id)).not.toContain(
      theirs.id,
    );
  });

  it('a malformed id is 400 naming the parameter (not 404); a well-formed unknown one is 404', async () => {
    const { a } = s;
    const e = await createEndpoint(a, { url: rx.url, events: ['*'] });
    const dlv = (await a.call('POST', `/webhooks/${e.id}/test`)).json().delivery_id;
    const since = new Date(0).toISOString();
    const bad = ['nope', 'ep_123', `ep_${'A'.repeat(24)}`, `ep_${'0'.repeat(25)}`, `dlv_${'0'.repeat(24)}`];
    for (const id of bad) {
      for (const [method, path, body] of everyRoute(e.id, dlv, since)) {
        if (!path.includes(e.id)) continue;
        const res = await a.call(method, path.replace(e.id, encodeURIComponent(id)), body);
        expect(expectInvalid(res, 'id'), `${method} ${path} ${id}`).toBe(
          "Parameter 'id' has an invalid format.",
        );
        expectRateHeaders(res);
      }
    }
    for (const d of ['nope', e.id, `dlv_${'0'.repeat(23)}`]) {
      const res = await a.call('POST', `/webhooks/${e.id}/deliveries/${d}/redeliver`);
      expectInvalid(res, 'delivery_id');
    }
    const unknown = await a.call('POST', `/webhooks/${e.id}/deliveries/dlv_${'f'.repeat(24)}/redeliver`);
    expect(expectError(unknown, 404, 'not_found')).toContain(`dlv_${'f'.repeat(24)}`);
    // Nothing moved.
    expect((await a.call('GET', `/webhooks/${e.id}`)).json()).toMatchObject({
      enabled: true,
      description: '',
    });
  });

  it('ids are ep_ + 24 hex and dlv_ + 24 hex', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    expect(e.id.slice(3)).toMatch(HEX24);
    const t = (await s.a.call('POST', `/webhooks/${e.id}/test`)).json();
    expect(t.delivery_id.slice(4)).toMatch(HEX24);
    expect(t.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(t.attempt.attempted_at).toMatch(ISO_MS);
  });
});

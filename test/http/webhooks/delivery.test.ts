import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import {
  createEndpoint,
  expectError,
  expectInvalid,
  ISO_MS,
  type Received,
  Receiver,
  type Setup,
  setup,
} from './helpers.ts';

/** The receiver's side: Standard Webhooks verification with the package, as docs/webhooks.md shows it. */
const verify = (secret: string, r: Received): unknown =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
const signatures = (r: Received): string[] => String(r.headers['webhook-signature']).split(' ');

describe.each(DIALECTS)('webhooks: test, rotation, redeliver, 410, recover, delivery log (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  beforeAll(async () => {
    s = await setup(dialect);
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx?.close();
    await s?.ctx.close();
  });
  beforeEach(() => {
    rx.answer = { status: 204 };
  });

  const test = async (id: string) => {
    const res = await s.a.call('POST', `/webhooks/${id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('test sends a signed webhook.test now; the standardwebhooks package verifies it; the answer is the attempt', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['score.changed'] });
    const heard = rx.received.length;
    const answer = await test(e.id);
    expect(rx.received).toHaveLength(heard + 1);
    const got = rx.last();

    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('PureRank-Webhooks/1');
    expect(got.headers['webhook-id']).toBe(answer.event_id);
    const ts = Number(got.headers['webhook-timestamp']);
    expect(ts).toBe(Math.floor(s.ctx.clock.now() / 1000));
    expect(signatures(got)).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]+={0,2}$/)]);

    const payload = verify(e.secret, got);
    expect(payload).toEqual({
      id: answer.event_id,
      type: 'webhook.test',
      created: ts,
      data: { endpoint_id: e.id, message: expect.any(String) },
    });
    // Exactly the four fields of the envelope, in order.
    expect(Object.keys(JSON.parse(got.body))).toEqual(['id', 'type', 'created', 'data']);

    // The verifier can fail: another secret, a changed body, a changed id.
    const other = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    expect(() => verify(other.secret, got)).toThrow(/No matching signature/);
    expect(() =>
      verify(e.secret, { ...got, body: got.body.replace('webhook.test', 'webhook.tesT') }),
    ).toThrow();
    expect(() => verify(e.secret, { ...got, headers: { ...got.headers, 'webhook-id': 'evt_x' } })).toThrow();

    expect(answer).toEqual({
      delivery_id: expect.stringMatching(/^dlv_[0-9a-f]{24}$/),
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      attempt: {
        attempted_at: expect.stringMatching(ISO_MS),
        http_status: 204,
        latency_ms: expect.any(Number),
        error: null,
        trigger: 'test',
      },
      endpoint: expect.objectContaining({ id: e.id, enabled: true, failing_since: null }),
    });
    expect(answer.attempt.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(answer)).not.toContain(e.secret);
  });

  it('test reports a receiver that fails: its status, or why none came; 200 all the same', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    rx.answer = { status: 500 };
    const failed = await test(e.id);
    expect(failed.attempt).toMatchObject({
      http_status: 500,
      error: expect.stringContaining('500'),
      trigger: 'test',
    });
    expect(failed.endpoint).toMatchObject({ enabled: true, failing_since: failed.attempt.attempted_at });

    // Nobody listens on port 9 of 127.0.0.1: no status, an error in words.
    const dead = await createEndpoint(s.a, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    const refused = await test(dead.id);
    expect(refused.attempt).toMatchObject({ http_status: null, error: expect.any(String), trigger: 'test' });
    expect(refused.attempt.error).not.toMatch(/ECONNREFUSED|at .*\.ts|node:/);

    // A success ends the failing streak.
    rx.answer = { status: 200 };
    const ok = await test(e.id);
    expect(ok.endpoint.failing_since).toBeNull();
  });

  it('rotate_secret with the default overlap: deliveries carry both signatures, and each secret verifies', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    const rotated = (await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`)).json();
    expect(rotated.previous_secret_expires_at).toBe(new Date(s.ctx.clock.now() + 86_400_000).toISOString());
    await test(e.id);
    const got = rx.last();
    const sigs = signatures(got);
    expect(sigs).toHaveLength(2);
    for (const sig of sigs) expect(sig).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(sigs[0]).not.toBe(sigs[1]);
    const withOld = verify(e.secret, got);
    const withNew = verify(rotated.secret, got);
    expect(withOld).toEqual(withNew);
    expect(withNew).toMatchObject({ type: 'webhook.test' });
    // Each signature alone is a secret's: the old one verifies only with the old signature.
    const only = (sig: string) => ({ ...got, headers: { ...got.headers, 'webhook-signature': sig } });
    expect(() => verify(e.secret, only(sigs[0]!))).toThrow();
    expect(verify(e.secret, only(sigs[1]!))).toBeTruthy();
    expect(verify(rotated.secret, only(sigs[0]!))).toBeTruthy();
  });

  it('after the overlap passes only the new secret signs', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    // A short overlap, so the advanced clock stays within the receiver's 5-minute tolerance.
    const rotated = (
      await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, { overlap_seconds: 120 })
    ).json();
    expect(rotated.previous_secret_expires_at).toBe(new Date(s.ctx.clock.now() + 120_000).toISOString());
    s.ctx.clock.advance(60_000);
    await test(e.id);
    expect(signatures(rx.last())).toHaveLength(2);
    expect(verify(e.secret, rx.last())).toBeTruthy();

    s.ctx.clock.advance(61_000);
    await test(e.id);
    const after = rx.last();
    expect(signatures(after)).toHaveLength(1);
    expect(verify(rotated.secret, after)).toMatchObject({ type: 'webhook.test' });
    expect(() => verify(e.secret, after)).toThrow(/No matching signature/);
    s.ctx.clock.advance(-121_000);
  });

  it('overlap_seconds 0 retires the old secret at once; a rotation during an overlap keeps the latest two', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    const r0 = (await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, { overlap_seconds: 0 })).json();
    expect(r0.previous_secret_expires_at).toBeNull();
    await test(e.id);
    expect(signatures(rx.last())).toHaveLength(1);
    expect(verify(r0.secret, rx.last())).toBeTruthy();
    expect(() => verify(e.secret, rx.last())).toThrow();

    const r1 = (await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, { overlap_seconds: 3600 })).json();
    const r2 = (await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, {})).json();
    await test(e.id);
    const got = rx.last();
    expect(signatures(got)).toHaveLength(2);
    expect(verify(r2.secret, got)).toBeTruthy();
    expect(verify(r1.secret, got)).toBeTruthy();
    expect(() => verify(r0.secret, got)).toThrow();
  });

  it('redeliver sends the same event id and the same body again, signed now; the log shows both attempts', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    rx.answer = { status: 503 };
    const first = await test(e.id);
    const original = rx.last();
    s.ctx.clock.advance(2000);
    rx.answer = { status: 200 };
    const res = await s.a.call('POST', `/webhooks/${e.id}/deliveries/${first.delivery_id}/redeliver`);
    expect(res.statusCode, res.body).toBe(200);
    const again = res.json();
    expect(again).toMatchObject({
      delivery_id: first.delivery_id,
      event_id: first.event_id,
      attempt: { http_status: 200, error: null, trigger: 'redeliver' },
    });
    const resent = rx.last();
    expect(resent).not.toBe(original);
    expect(resent.headers['webhook-id']).toBe(original.headers['webhook-id']);
    expect(resent.body).toBe(original.body);
    expect(Number(resent.headers['webhook-timestamp'])).toBe(
      Number(original.headers['webhook-timestamp']) + 2,
    );
    expect(verify(e.secret, resent)).toEqual(verify(e.secret, original));

    const log = (await s.a.call('GET', `/webhooks/${e.id}/deliveries`)).json();
    expect(log.data).toEqual([
      {
        id: first.delivery_id,
        event_id: first.event_id,
        event_type: 'webhook.test',
        status: 'succeeded',
        attempt_count: 2,
        next_attempt_at: null,
        created_at: first.attempt.attempted_at,
        attempts: [
          expect.objectContaining({ http_status: 503, trigger: 'test', error: expect.any(String) }),
          expect.objectContaining({ http_status: 200, trigger: 'redeliver', error: null }),
        ],
      },
    ]);
    s.ctx.clock.advance(-2000);
  });

  it('a receiver answering 410 to test disables the endpoint: gone, visible on GET; PATCH enabled:true revives it', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    rx.answer = { status: 410 };
    const answer = await test(e.id);
    expect(answer.attempt).toMatchObject({ http_status: 410, error: expect.any(String) });
    expect(answer.endpoint).toMatchObject({
      enabled: false,
      disabled_reason: 'gone',
      disabled_at: expect.stringMatching(ISO_MS),
      failing_since: answer.attempt.attempted_at,
    });
    const got = (await s.a.call('GET', `/webhooks/${e.id}`)).json();
    expect(got).toEqual(answer.endpoint);
    expect((await s.a.call('GET', '/webhooks')).json().data).toContainEqual(answer.endpoint);

    const revived = (await s.a.call('PATCH', `/webhooks/${e.id}`, { enabled: true })).json();
    expect(revived).toMatchObject({
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    });
  });

  /** A message of a real event that the worker gave up on (written directly: no worker runs here). */
  const failedEventMessage = async (endpointId: string) => {
    const at = new Date(s.ctx.clock.now()).toISOString();
    const id = `dlv_${randomBytes(12).toString('hex')}`;
    await s.ctx.container.store.kysely
      .insertInto('webhook_messages')
      .values({
        id,
        endpoint_id: endpointId,
        event_id: `evt_${randomBytes(16).toString('hex')}`,
        event_type: 'score.changed',
        payload: '{}',
        status: 'failed',
        attempts: 10,
        next_attempt_at: null,
        claim_token: null,
        last_attempt_at: at,
        created_at: at,
      })
      .execute();
    return id;
  };

  it('recover requeues the failed messages created since a time, and only those; test events are not recovered', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    const old = await failedEventMessage(e.id);
    s.ctx.clock.advance(10_000);
    const since = new Date(s.ctx.clock.now()).toISOString();
    const f1 = await failedEventMessage(e.id);
    s.ctx.clock.advance(1000);
    const f2 = await failedEventMessage(e.id);
    rx.answer = { status: 500 };
    const failedTest = await test(e.id);
    rx.answer = { status: 204 };
    const ok = await test(e.id);

    const failed = (await s.a.call('GET', `/webhooks/${e.id}/deliveries?status=failed`)).json();
    expect(failed.data.map((d: { id: string }) => d.id).sort()).toEqual(
      [failedTest.delivery_id, f2, f1, old].sort(),
    );

    const res = await s.a.call('POST', `/webhooks/${e.id}/recover`, { since });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ requeued: 2 });

    const pending = (await s.a.call('GET', `/webhooks/${e.id}/deliveries?status=pending`)).json();
    expect(pending.total).toBe(2);
    const due = new Date(s.ctx.clock.now()).toISOString();
    for (const d of pending.data) {
      // From the start of the schedule, due now.
      expect(d).toMatchObject({ status: 'pending', attempt_count: 0, next_attempt_at: due });
    }
    expect(pending.data.map((d: { id: string }) => d.id).sort()).toEqual([f1, f2].sort());
    // The failed test event stays failed: it answered a request, it is not an event the account missed.
    const stillFailed = (await s.a.call('GET', `/webhooks/${e.id}/deliveries?status=failed`)).json();
    expect(stillFailed.data.map((d: { id: string }) => d.id).sort()).toEqual(
      [failedTest.delivery_id, old].sort(),
    );
    const succeeded = (await s.a.call('GET', `/webhooks/${e.id}/deliveries?status=succeeded`)).json();
    expect(succeeded.data.map((d: { id: string }) => d.id)).toEqual([ok.delivery_id]);

    // Again: nothing failed since then any more.
    expect((await s.a.call('POST', `/webhooks/${e.id}/recover`, { since })).json()).toEqual({ requeued: 0 });
    // Since before everything: the old one too.
    expect(
      (await s.a.call('POST', `/webhooks/${e.id}/recover`, { since: '2000-01-01T00:00:00Z' })).json(),
    ).toEqual({ requeued: 1 });
    s.ctx.clock.advance(-11_000);
  });

  it('recover refuses a bad or future `since` and changes nothing', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    rx.answer = { status: 500 };
    await test(e.id);
    const before = (await s.a.call('GET', `/webhooks/${e.id}/deliveries`)).json();
    const future = new Date(s.ctx.clock.now() + 60_000).toISOString();
    for (const body of [
      {},
      { since: 'yesterday' },
      { since: '2026-13-01T00:00:00Z' },
      { since: '2026-06-01' },
      { since: 20260601 },
      { since: null },
      { since: future },
      { since: '2026-06-01T00:00:00Z', extra: true },
    ]) {
      const field = 'extra' in body ? 'extra' : 'since';
      expectInvalid(await s.a.call('POST', `/webhooks/${e.id}/recover`, body), field);
    }
    const noBody = await s.a.call('POST', `/webhooks/${e.id}/recover`);
    expect(expectError(noBody, 400, 'invalid_parameter')).toContain('needs a JSON body');
    expect((await s.a.call('GET', `/webhooks/${e.id}/deliveries`)).json()).toEqual(before);
  });

  it('the delivery log: filters by status and event type, pages newest first, refuses bad values', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      rx.answer = { status: i % 2 === 0 ? 204 : 500 };
      ids.push((await test(e.id)).delivery_id);
      s.ctx.clock.advance(1000);
    }
    const newestFirst = [...ids].reverse();
    const get = async (q: string) => {
      const res = await s.a.call('GET', `/webhooks/${e.id}/deliveries${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await get('');
    expect(all.total).toBe(5);
    expect(all.page).toBe(1);
    expect(all.data.map((d: { id: string }) => d.id)).toEqual(newestFirst);
    expect((await get('?per_page=2')).data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(0, 2));
    const p3 = await get('?per_page=2&page=3');
    expect(p3).toMatchObject({ total: 5, page: 3 });
    expect(p3.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(4));
    expect(await get('?page=9')).toEqual({ data: [], total: 5, page: 9 });
    expect((await get('?status=succeeded')).total).toBe(3);
    expect((await get('?status=failed&per_page=1')).total).toBe(2);
    expect((await get('?event_type=webhook.test')).total).toBe(5);
    expect(await get('?event_type=score.changed')).toEqual({ data: [], total: 0, page: 1 });

    for (const [q, field] of [
      ['?status=done', 'status'],
      ['?event_type=score', 'event_type'],
      ['?page=0', 'page'],
      ['?page=x', 'page'],
      ['?per_page=101', 'per_page'],
      ['?per_page=0', 'per_page'],
      ['?per_page=1.5', 'per_page'],
      ['?status=failed&status=pending', 'status'],
      ['?limit=5', 'limit'],
    ] as const) {
      expectInvalid(await s.a.call('GET', `/webhooks/${e.id}/deliveries${q}`), field);
    }
    s.ctx.clock.advance(-5000);
  });
});

import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, ManualClock } from '../../src/core/clock.ts';
import { fanOutPlanner, WEBHOOK_PLANS } from '../../src/core/webhooks/fan-out.ts';
import type { DeliveryWorker } from '../../src/worker/delivery-worker.ts';
import { T0, type TestContext } from '../support/context.ts';
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

type Ctx = TestContext & { ownerId: number; otherId: number };

const stringHeaders = (h: Record<string, string | string[] | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));

describe.each(DIALECTS)('webhook delivery worker (%s)', (dialect) => {
  const open: { ctx?: Ctx; worker?: DeliveryWorker; receiver?: Receiver }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.worker?.stop();
      await o.receiver?.close();
      await o.ctx?.close();
    }
  });

  async function setup(
    reply?: Parameters<typeof startReceiver>[0],
    webhooks?: Parameters<typeof webhookContext>[1],
  ): Promise<{ ctx: Ctx; receiver: Receiver }> {
    const ctx = await webhookContext(dialect, webhooks);
    const receiver = await startReceiver(reply);
    open.push({ ctx, receiver });
    return { ctx, receiver };
  }

  function start(ctx: Ctx, opts?: Parameters<typeof workerFor>[1]): DeliveryWorker {
    const worker = workerFor(ctx, opts);
    open.unshift({ worker });
    worker.start();
    return worker;
  }

  const rows = (ctx: Ctx, endpointId: string) =>
    ctx.container.store.kysely
      .selectFrom('webhook_messages')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .execute();
  const attemptsOf = (ctx: Ctx, messageId: string) =>
    ctx.container.store.kysely
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('message_id', '=', messageId)
      .orderBy('id')
      .execute();

  it("delivers each event to its owner's enabled endpoints that subscribe to its type: the exact envelope, verified by standardwebhooks, during a rotation's overlap too", async () => {
    const { ctx, receiver } = await setup();
    const hooks = ctx.container.webhooks;
    const all = await hooks.create(ctx.ownerId, { url: receiver.url('/all'), events: ['*'] });
    const replies = await hooks.create(ctx.ownerId, {
      url: receiver.url('/replies'),
      events: ['review.reply'],
    });
    const off = await hooks.create(ctx.ownerId, { url: receiver.url('/off'), events: ['review.new'] });
    await hooks.update(ctx.ownerId, off.endpoint.id, { enabled: false });
    const others = await hooks.create(ctx.otherId, { url: receiver.url('/other'), events: ['review.new'] });
    const worker = start(ctx);

    expect((await ctx.load([...reviews('alpha', 3), ...reviews('beta', 2), ...reviews('gamma', 1)])).ok).toBe(
      true,
    );
    const events = await ctx.container.store.outbox.list({ limit: 100 });
    expect(events.map((e) => e.type)).toEqual(Array(6).fill('review.new'));
    const alpha = events.filter((e) => e.vendorSlug === 'alpha');
    const beta = events.filter((e) => e.vendorSlug === 'beta');

    await eventually('3 deliveries at /all and 2 at /other', () => {
      const c = receiver.countById();
      return [...alpha, ...beta].every((e) => c.has(e.id));
    });
    // Time for anything misdirected to arrive too.
    await new Promise((r) => setTimeout(r, 300));
    expect([...receiver.countById('/all')].sort()).toEqual(alpha.map((e) => [e.id, 1]).sort());
    expect([...receiver.countById('/other')].sort()).toEqual(beta.map((e) => [e.id, 1]).sort());
    expect(receiver.countById('/replies').size).toBe(0);
    expect(receiver.countById('/off').size).toBe(0);
    expect(await rows(ctx, replies.endpoint.id)).toEqual([]);
    // The disabled endpoint missed alpha's events but has them, failed without an attempt, for
    // `recover` once it is enabled again: nothing is lost while an endpoint is off.
    const missed = await rows(ctx, off.endpoint.id);
    expect(missed.map((m) => m.event_id).sort()).toEqual(alpha.map((e) => e.id).sort());
    for (const m of missed) {
      expect(m).toMatchObject({ status: 'failed', next_attempt_at: null });
      expect(Number(m.attempts)).toBe(0);
    }

    const verifier = new Webhook(all.secret);
    for (const r of receiver.received.filter((x) => x.path === '/all')) {
      const event = alpha.find((e) => e.id === r.eventId)!;
      // Exactly the envelope, in its order, `created` in Unix seconds of the commit.
      expect(Object.keys(JSON.parse(r.body))).toEqual(['id', 'type', 'created', 'data']);
      expect(JSON.parse(r.body)).toEqual({
        id: event.id,
        type: 'review.new',
        created: Math.floor(T0 / 1000),
        data: event.data,
      });
      expect(verifier.verify(r.body, stringHeaders(r.headers))).toEqual(JSON.parse(r.body));
      expect(r.headers['content-type']).toBe('application/json');
      expect(() => new Webhook(others.secret).verify(r.body, stringHeaders(r.headers))).toThrow();
    }
    for (const m of await rows(ctx, all.endpoint.id)) {
      expect(m).toMatchObject({ status: 'succeeded', claim_token: null, next_attempt_at: null });
      expect(Number(m.attempts)).toBe(1);
      const a = await attemptsOf(ctx, m.id);
      expect(a.map((x) => [Number(x.http_status), x.trigger, x.error])).toEqual([[204, 'scheduled', null]]);
    }

    // A rotation with an overlap: both signatures, each secret verifies on its own. (The worker
    // signs by the system clock: the context's manual clock is set to it for the overlap's end.)
    ctx.clock.set(Date.now());
    const rotated = await hooks.rotateSecret(ctx.ownerId, all.endpoint.id, 3600);
    await ctx.load(reviews('alpha', 1));
    const [late] = (await ctx.container.store.outbox.list({ limit: 1, after: events.at(-1)!.seq })).slice(-1);
    const got = await eventually('the delivery after the rotation', () =>
      receiver.received.find((r) => r.eventId === late!.id),
    );
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(all.secret).verify(got.body, stringHeaders(got.headers))).toBeTruthy();
    expect(new Webhook(rotated.secret).verify(got.body, stringHeaders(got.headers))).toBeTruthy();
    // 10 messages: 6 delivered, and 4 kept (failed, no attempt) for the disabled /off endpoint.
    expect(worker.stats).toMatchObject({ eventsFannedOut: 7, messagesCreated: 10, succeeded: 6, failed: 0 });
  });

  it('retries a failing receiver on the schedule, then marks the message failed (the endpoint stays enabled)', async () => {
    const { ctx, receiver } = await setup(() => ({ status: 500 }));
    const ep = await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/x'), events: ['*'] });
    start(ctx);
    await ctx.load(reviews('alpha', 1));
    const [m] = await eventually('the message failed', async () => {
      const r = await rows(ctx, ep.endpoint.id);
      return r[0]?.status === 'failed' ? r : null;
    });
    // The first try and one per step of the schedule [50, 100, 200] ms.
    const arrivals = receiver.received.map((r) => r.at);
    expect(arrivals).toHaveLength(4);
    const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    // ±10 % jitter on each step.
    for (const [i, g] of gaps.entries()) expect(g).toBeGreaterThanOrEqual([50, 100, 200][i]! * 0.9 - 5);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.eventId)).size).toBe(1);
    expect(m).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(Number(m!.attempts)).toBe(4);
    const attempts = await attemptsOf(ctx, m!.id);
    expect(attempts.map((a) => [Number(a.http_status), a.error])).toEqual(
      Array(4).fill([500, 'HTTP 500 (not 2xx)']),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(4);
    const endpoint = await ctx.container.webhooks.get(ctx.ownerId, ep.endpoint.id);
    expect(endpoint).toMatchObject({ enabled: true, disabledReason: null });
    expect(endpoint.failingSince).toBe(attempts[0]!.attempted_at);
  });

  it('honours Retry-After on 429 and 503 in place of the schedule', async () => {
    const { ctx, receiver } = await setup((_r, nth) =>
      nth === 1
        ? { status: 429, headers: { 'retry-after': '1' } }
        : nth === 2
          ? { status: 503, headers: { 'retry-after': '1' } }
          : { status: 200 },
    );
    const ep = await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/x'), events: ['*'] });
    start(ctx);
    await ctx.load(reviews('alpha', 1));
    await eventually(
      'the third try succeeded',
      async () => (await rows(ctx, ep.endpoint.id))[0]?.status === 'succeeded',
    );
    const [a, b, c] = receiver.received.map((r) => r.at);
    // The schedule would have retried after 50 and 100 ms.
    expect(b! - a!).toBeGreaterThanOrEqual(990);
    expect(c! - b!).toBeGreaterThanOrEqual(990);
    expect(receiver.received).toHaveLength(3);
  });

  it('a 410 disables the endpoint at once: no retry; what comes meanwhile is kept for recover', async () => {
    // The receiver is gone until the test enables the endpoint again.
    let gone = true;
    const { ctx, receiver } = await setup(() => ({ status: gone ? 410 : 204 }));
    const ep = await ctx.container.webhooks.create(ctx.ownerId, {
      url: receiver.url('/gone'),
      events: ['*'],
    });
    const worker = start(ctx);
    await ctx.load(reviews('alpha', 1));
    const endpoint = await eventually('the endpoint is disabled', async () => {
      const e = await ctx.container.webhooks.get(ctx.ownerId, ep.endpoint.id);
      return e.enabled ? null : e;
    });
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect(endpoint.disabledAt).not.toBeNull();
    await ctx.load(reviews('alpha', 1));
    await eventually('the second event was fanned out', () => worker.stats.eventsFannedOut === 2);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received).toHaveLength(1);
    // Its first message waits (pending): enabling the endpoint again sends it. The event that came
    // while it was disabled is kept as failed, without an attempt, for `recover` (docs/webhooks.md).
    const messages = await rows(ctx, ep.endpoint.id);
    expect(messages.map((m) => [m.status, Number(m.attempts)]).sort()).toEqual([
      ['failed', 0],
      ['pending', 1],
    ]);

    // Back: enabling sends the waiting message, recover the one that came while it was off.
    gone = false;
    await ctx.container.webhooks.update(ctx.ownerId, ep.endpoint.id, { enabled: true });
    ctx.clock.set(Date.now());
    expect(
      await ctx.container.webhooks.recover(ctx.ownerId, ep.endpoint.id, new Date(0).toISOString()),
    ).toEqual({
      requeued: 1,
    });
    await eventually('both events delivered', async () =>
      (await rows(ctx, ep.endpoint.id)).every((m) => m.status === 'succeeded'),
    );
    expect(new Set(receiver.received.map((r) => r.eventId)).size).toBe(2);
  });

  it('an endpoint failing without a success for disableAfterMs (5 days) is disabled as failing', async () => {
    const { ctx, receiver } = await setup(() => ({ status: 500 }), { retrySchedule: [50, 50, 50, 50, 50] });
    const ep = await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/x'), events: ['*'] });
    const clock = new ManualClock(Date.now());
    const t0 = clock.now();
    start(ctx, { clock });
    await ctx.load(reviews('alpha', 1));
    const tries = async (n: number) => {
      await eventually(
        `attempt ${n} recorded`,
        async () => Number((await rows(ctx, ep.endpoint.id))[0]?.attempts) === n,
      );
    };
    await tries(1);
    const failing = await ctx.container.webhooks.get(ctx.ownerId, ep.endpoint.id);
    expect(failing).toMatchObject({ enabled: true, failingSince: new Date(t0).toISOString() });
    clock.advance(2 * DAY_MS);
    await tries(2);
    clock.advance(2 * DAY_MS);
    await tries(3);
    expect((await ctx.container.webhooks.get(ctx.ownerId, ep.endpoint.id)).enabled).toBe(true);
    clock.advance(DAY_MS + 1);
    await tries(4);
    const disabled = await eventually('disabled', async () => {
      const e = await ctx.container.webhooks.get(ctx.ownerId, ep.endpoint.id);
      return e.enabled ? null : e;
    });
    expect(disabled).toMatchObject({
      disabledReason: 'failing',
      failingSince: new Date(t0).toISOString(),
      disabledAt: new Date(t0 + 5 * DAY_MS + 1).toISOString(),
    });
    clock.advance(DAY_MS);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(4);
  });

  it("a slow endpoint (a receiver that hangs) never delays another endpoint's deliveries", async () => {
    const { ctx, receiver } = await setup((r) => (r.path === '/slow' ? { hang: true } : { status: 204 }), {
      endpointConcurrency: 4,
      concurrency: 6,
      timeoutMs: 3_000,
    });
    const slow = await ctx.container.webhooks.create(ctx.ownerId, {
      url: receiver.url('/slow'),
      events: ['*'],
    });
    await ctx.container.webhooks.create(ctx.otherId, { url: receiver.url('/fast'), events: ['*'] });
    start(ctx);
    // The slow endpoint's backlog first, committed before the other's events.
    await ctx.load(reviews('alpha', 200));
    await eventually('the slow endpoint is at its cap', () => receiver.countById('/slow').size === 4);
    const t = performance.now();
    await ctx.load(reviews('beta', 40));
    await eventually('every event at /fast', () => receiver.countById('/fast').size === 40, 2_000);
    const took = performance.now() - t;
    // 40 deliveries through 2 free slots, while the slow endpoint holds its 4 for 3 s each.
    expect(took).toBeLessThan(1_500);
    expect(receiver.countById('/slow').size).toBe(4);
    const slowRows = await rows(ctx, slow.endpoint.id);
    expect(slowRows.filter((m) => m.claim_token !== null)).toHaveLength(4);
  });

  it("one account's many endpoints at a receiver that hangs never delay another account's deliveries: the account cap holds them", async () => {
    // 8 endpoints × 5 per endpoint would be twice the worker's 20 slots; the account cap is 10.
    const { ctx, receiver } = await setup(
      (r) => (r.path.startsWith('/slow') ? { hang: true } : { status: 204 }),
      { endpointConcurrency: 5, accountConcurrency: 10, concurrency: 20, timeoutMs: 3_000 },
    );
    const slowPaths = Array.from({ length: 8 }, (_, i) => `/slow-${i}`);
    for (const path of slowPaths) {
      await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url(path), events: ['*'] });
    }
    await ctx.container.webhooks.create(ctx.otherId, { url: receiver.url('/fast'), events: ['*'] });
    start(ctx);
    // The hog's backlog first, committed before the other account's events: 240 messages due.
    await ctx.load(reviews('alpha', 30));
    const hanging = () => receiver.received.filter((r) => r.path.startsWith('/slow')).length;
    await eventually('the hog is at its account cap', () => hanging() === 10);
    const t = performance.now();
    await ctx.load(reviews('beta', 40));
    await eventually('every event at /fast', () => receiver.countById('/fast').size === 40, 3_000);
    const took = performance.now() - t;
    // Without the account cap the hog held all 20 slots for 3 s (the attempts' time limit).
    expect(took).toBeLessThan(1_000);
    expect(hanging()).toBe(10);
    // Shared round the hog's endpoints too: none took a second slot before each had one.
    for (const path of slowPaths) {
      expect(receiver.received.filter((r) => r.path === path).length).toBeGreaterThanOrEqual(1);
      expect(receiver.received.filter((r) => r.path === path).length).toBeLessThanOrEqual(2);
    }
  });

  it('a downgraded account gets no message and its waiting ones are not sent; upgraded back, they go out', async () => {
    const { ctx, receiver } = await setup();
    const hooks = ctx.container.webhooks;
    const mine = await hooks.create(ctx.ownerId, { url: receiver.url('/owner'), events: ['*'] });
    await hooks.create(ctx.otherId, { url: receiver.url('/other'), events: ['*'] });
    // Two messages pending for the owner (fanned out, not yet sent) when the plan changes.
    await ctx.load(reviews('alpha', 2));
    const waiting = await ctx.container.store.outbox.list({ limit: 10 });
    expect(
      (await ctx.container.store.deliveries.fanOut(fanOutPlanner(Date.now), 500, WEBHOOK_PLANS)).messages,
    ).toBe(2);
    await ctx.container.operator.updateAccount('owner', { plan: 'pro' }, 'test');
    const worker = start(ctx);
    await ctx.load([...reviews('alpha', 3), ...reviews('beta', 2)]);
    await eventually('the other account served', () => receiver.countById('/other').size === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.countById('/owner').size).toBe(0);
    // The events of the downgraded time made no message; the two from before wait, untried.
    const held = await rows(ctx, mine.endpoint.id);
    expect(held.map((m) => [m.status, Number(m.attempts), m.claim_token]).sort()).toEqual([
      ['pending', 0, null],
      ['pending', 0, null],
    ]);
    expect(worker.stats).toMatchObject({ eventsFannedOut: 5, messagesCreated: 2 });

    await ctx.container.operator.updateAccount('owner', { plan: 'enterprise' }, 'test');
    await eventually('the waiting messages sent', () => receiver.countById('/owner').size === 2);
    expect([...receiver.countById('/owner').keys()].sort()).toEqual(waiting.map((e) => e.id).sort());
    // And new events reach it again.
    await ctx.load(reviews('alpha', 1));
    await eventually('a new event delivered', () => receiver.countById('/owner').size === 3);
  });

  it('keeps going when an outcome cannot be written (its endpoint was deleted mid-attempt)', async () => {
    const log = memoryLog();
    const { ctx, receiver } = await setup(async (r) => {
      if (r.path === '/doomed') await new Promise((res) => setTimeout(res, 300));
      return { status: 204 };
    });
    const doomed = await ctx.container.webhooks.create(ctx.ownerId, {
      url: receiver.url('/doomed'),
      events: ['*'],
    });
    await ctx.container.webhooks.create(ctx.otherId, { url: receiver.url('/fine'), events: ['*'] });
    const worker = start(ctx, { log });
    await ctx.load(reviews('alpha', 1));
    await eventually('the doomed attempt is under way', () => receiver.countById('/doomed').size === 1);
    await ctx.container.webhooks.remove(ctx.ownerId, doomed.endpoint.id);
    await eventually('its outcome was dropped', () => worker.stats.dropped === 1);
    await ctx.load(reviews('beta', 3));
    await eventually('later events still delivered', () => receiver.countById('/fine').size === 3);
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a database failure is logged and backed off, never thrown: the worker goes on once the database is back', async () => {
    const { ctx, receiver } = await setup();
    await ctx.container.webhooks.create(ctx.ownerId, { url: receiver.url('/x'), events: ['*'] });
    const log = memoryLog();
    const worker = start(ctx, { log });
    await ctx.load(reviews('alpha', 5));
    await eventually('the first events delivered', () => receiver.countById('/x').size === 5);
    const db = ctx.container.store.kysely;
    if (dialect === 'postgres') {
      // Every connection of the worker's pool is killed, as a database restart would.
      const killed = await sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`.execute(db);
      expect(killed.rows[0]!.n).toBeGreaterThan(0);
    }
    // The cursor's table goes away for a while: every poll fails until it is back.
    await sql`alter table webhook_state rename to webhook_state_away`.execute(db);
    await eventually('a failure logged', () => log.lines.some((l) => l.level === 'error'));
    await new Promise((r) => setTimeout(r, 200));
    await sql`alter table webhook_state_away rename to webhook_state`.execute(db);
    await ctx.load(reviews('alpha', 5));
    await eventually('later events delivered', () => receiver.countById('/x').size === 10, 10_000);
    // Outcomes are written after the answers arrive (and one whose write met the killed connection
    // is sent again), so the count is awaited, not read at once.
    await eventually('every outcome recorded', () => worker.stats.succeeded >= 10, 10_000);
  });

  it('deletes settled messages (and their attempts) older than 30 days; keeps pending and recent ones', async () => {
    const { ctx } = await setup();
    const ep = await ctx.container.webhooks.create(ctx.ownerId, {
      url: 'http://127.0.0.1:9/x',
      events: ['*'],
    });
    const db = ctx.container.store.kysely;
    const old = new Date(Date.now() - 31 * DAY_MS).toISOString();
    const recent = new Date(Date.now() - 29 * DAY_MS).toISOString();
    const message = (id: string, status: string, createdAt: string, lastAttemptAt: string | null) => ({
      id,
      endpoint_id: ep.endpoint.id,
      event_id: `evt_${id}`,
      event_type: 'review.new',
      payload: '{}',
      status,
      attempts: 1,
      next_attempt_at: status === 'pending' ? Date.now() + DAY_MS : null,
      claim_token: null,
      last_attempt_at: lastAttemptAt,
      created_at: createdAt,
    });
    await db
      .insertInto('webhook_messages')
      .values([
        message('old-ok', 'succeeded', old, old),
        message('old-failed', 'failed', old, old),
        message('old-pending', 'pending', old, old),
        message('old-but-retried-lately', 'failed', old, recent),
        message('recent-ok', 'succeeded', recent, recent),
      ])
      .execute();
    await db
      .insertInto('webhook_attempts')
      .values(
        ['old-ok', 'old-failed', 'old-pending', 'recent-ok'].map((id) => ({
          message_id: id,
          attempted_at: old,
          http_status: 200,
          latency_ms: 1,
          error: null,
          trigger: 'scheduled',
        })),
      )
      .execute();
    const worker = start(ctx);
    await eventually('the purge ran', () => worker.stats.purged === 2);
    const left = await db.selectFrom('webhook_messages').select('id').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(['old-but-retried-lately', 'old-pending', 'recent-ok']);
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select('message_id')
      .orderBy('message_id')
      .execute();
    expect(attempts.map((r) => r.message_id)).toEqual(['old-pending', 'recent-ok']);
  });
});

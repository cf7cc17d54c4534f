import { setTimeout as sleep } from 'node:timers/promises';
import { type KyselyPlugin, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import {
  anyClaimable,
  type DueRef,
  fullAccounts,
  fullEndpoints,
  type InFlight,
  nextTurnOrder,
  planClaims,
} from '../../src/core/webhooks/claim-plan.ts';
import type { DeliveryStore, DueQuery } from '../../src/core/webhooks/delivery-ports.ts';
import { fanOutPlanner, WEBHOOK_PLANS } from '../../src/core/webhooks/fan-out.ts';
import type { AttemptRecord } from '../../src/core/webhooks/ports.ts';
import { KyselyDeliveryStore } from '../../src/storage/stores/delivery-store.ts';
import type { TestContext } from '../support/context.ts';
import { DIALECTS } from '../support/databases.ts';
import { reviews, webhookContext } from './support.ts';

type Ctx = TestContext & { ownerId: number; otherId: number };

describe('planClaims: how free slots are shared', () => {
  // One account per endpoint unless a test says otherwise.
  const solo = (...ids: string[]): DueRef[] => ids.map((endpointId, i) => ({ endpointId, accountId: i }));
  const idle: InFlight = { endpoints: new Map(), accounts: new Map() };
  const plan = (due: DueRef[], inFlight: InFlight, perEndpoint: number, perAccount: number, free: number) =>
    Object.fromEntries(planClaims(due, inFlight, { perEndpoint, perAccount }, free));

  it('gives an endpoint at its cap nothing and deals the rest round the due endpoints, in turn order', () => {
    const inFlight: InFlight = {
      endpoints: new Map([
        ['busy', 10],
        ['half', 8],
      ]),
      accounts: new Map([
        [0, 10],
        [1, 8],
      ]),
    };
    expect([
      ...planClaims(solo('busy', 'half', 'a', 'b'), inFlight, { perEndpoint: 10, perAccount: 50 }, 7),
    ]).toEqual([
      ['half', 2],
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('never gives more than an endpoint has room for, nor more than is free', () => {
    expect(plan(solo('a', 'b'), idle, 3, 50, 100)).toEqual({ a: 3, b: 3 });
    expect(plan(solo('a', 'b', 'c'), idle, 3, 50, 2)).toEqual({ a: 1, b: 1 });
    expect(planClaims(solo('a'), idle, { perEndpoint: 3, perAccount: 50 }, 0).size).toBe(0);
  });

  it('deals round the accounts first, then round the endpoints of each: many endpoints earn an account no more', () => {
    const many: DueRef[] = ['a1', 'a2', 'a3', 'a4', 'a5'].map((endpointId) => ({ endpointId, accountId: 1 }));
    const due = [...many, { endpointId: 'b1', accountId: 2 }];
    // Six slots: three turns of the two accounts; account 1 spreads its three over its endpoints.
    expect(plan(due, idle, 10, 50, 6)).toEqual({ a1: 1, a2: 1, a3: 1, b1: 3 });
    // Plenty of slots: account 2's one endpoint is held by its own cap, not by account 1's five.
    expect(plan(due, idle, 10, 50, 100)).toEqual({ a1: 10, a2: 10, a3: 10, a4: 10, a5: 10, b1: 10 });
  });

  it('gives an account no more than its cap, across all its endpoints; the others keep the rest', () => {
    const due: DueRef[] = [
      ...['a1', 'a2', 'a3', 'a4', 'a5'].map((endpointId) => ({ endpointId, accountId: 1 })),
      { endpointId: 'b1', accountId: 2 },
      { endpointId: 'b2', accountId: 2 },
    ];
    // 20 endpoints × 10 would be the whole worker; the account cap (12) stops it.
    expect(Object.values(plan(due, idle, 10, 12, 200)).reduce((a, b) => a + b)).toBe(12 + 12);
    const slots = plan(due, idle, 10, 12, 200);
    expect(slots.b1! + slots.b2!).toBe(12);
    expect(slots.a1! + slots.a2! + slots.a3! + slots.a4! + slots.a5!).toBe(12);
    // Account 1 already has 48 of its 50 in flight: two more, on its first endpoints in turn order.
    const busy: InFlight = {
      endpoints: new Map([
        ['a1', 9],
        ['a2', 9],
        ['a3', 10],
        ['a4', 10],
        ['a5', 10],
      ]),
      accounts: new Map([[1, 48]]),
    };
    expect(plan(due, busy, 10, 50, 30)).toEqual({ a1: 1, a2: 1, b1: 10, b2: 10 });
    const full: InFlight = { endpoints: busy.endpoints, accounts: new Map([[1, 50]]) };
    expect(plan(due, full, 10, 50, 30)).toEqual({ b1: 10, b2: 10 });
    expect(fullAccounts(full, { perEndpoint: 10, perAccount: 50 })).toEqual([1]);
    expect(fullEndpoints(full, { perEndpoint: 10, perAccount: 50 }).sort()).toEqual(['a3', 'a4', 'a5']);
    // Nothing claimable when every due endpoint's account is full (the worker then waits for a slot).
    expect(anyClaimable(due.slice(0, 5), full, { perEndpoint: 10, perAccount: 50 })).toBe(false);
    expect(anyClaimable(due, full, { perEndpoint: 10, perAccount: 50 })).toBe(true);
  });
});

describe('nextTurnOrder: the turn order after a claim', () => {
  it('sends served accounts to the back as wholes: slots freed one at a time alternate between accounts', () => {
    const due: DueRef[] = [
      ...['a1', 'a2', 'a3', 'a4'].map((endpointId) => ({ endpointId, accountId: 1 })),
      { endpointId: 'b1', accountId: 2 },
    ];
    let order = due;
    const turns: string[] = [];
    for (let i = 0; i < 6; i++) {
      const slots = planClaims(
        order,
        { endpoints: new Map(), accounts: new Map() },
        { perEndpoint: 10, perAccount: 50 },
        1,
      );
      turns.push(...slots.keys());
      order = nextTurnOrder(order, slots, slots);
    }
    expect(turns).toEqual(['a1', 'b1', 'a2', 'b1', 'a3', 'b1']);
  });

  it('drops an endpoint that yielded fewer than asked (nothing more is due there until the next look)', () => {
    const due: DueRef[] = [
      { endpointId: 'a1', accountId: 1 },
      { endpointId: 'a2', accountId: 1 },
      { endpointId: 'b1', accountId: 2 },
      { endpointId: 'c1', accountId: 3 },
    ];
    const slots = new Map([
      ['a1', 2],
      ['b1', 2],
    ]);
    const got = new Map([
      ['a1', 2],
      ['b1', 1],
    ]);
    expect(nextTurnOrder(due, slots, got).map((d) => d.endpointId)).toEqual(['c1', 'a2', 'a1']);
  });
});

describe('WEBHOOK_ACCOUNT_CONCURRENCY', () => {
  it('defaults to 50 (a quarter of the default WEBHOOK_CONCURRENCY) and must be a whole number ≥ 1', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ accountConcurrency: 50, concurrency: 200 });
    expect(loadConfig({ WEBHOOK_ACCOUNT_CONCURRENCY: '7' }).webhooks.accountConcurrency).toBe(7);
    expect(() => loadConfig({ WEBHOOK_ACCOUNT_CONCURRENCY: '0' })).toThrow(
      /WEBHOOK_ACCOUNT_CONCURRENCY must be between 1 and/,
    );
    expect(() => loadConfig({ WEBHOOK_ACCOUNT_CONCURRENCY: 'lots' })).toThrow(ConfigError);
  });
});

const dueAt = (d: DeliveryStore, nowMs: number, over: Partial<DueQuery> = {}) =>
  d.dueEndpoints({
    nowMs,
    plans: WEBHOOK_PLANS,
    excludeEndpoints: [],
    excludeAccounts: [],
    limit: 10,
    ...over,
  });

describe.each(DIALECTS)('delivery store (%s)', (dialect) => {
  const open: Ctx[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
  });

  async function fannedOut(n: number, endpoints = 1): Promise<{ ctx: Ctx; endpointIds: string[] }> {
    const ctx = await webhookContext(dialect);
    open.push(ctx);
    const endpointIds: string[] = [];
    for (let i = 0; i < endpoints; i++) {
      const e = await ctx.container.webhooks.create(ctx.ownerId, {
        url: `http://127.0.0.1:9/${i}`,
        events: ['*'],
      });
      endpointIds.push(e.endpoint.id);
    }
    await ctx.load(reviews('alpha', n));
    const plan = fanOutPlanner(() => Date.now());
    const r = await ctx.container.store.deliveries.fanOut(plan, 500, WEBHOOK_PLANS);
    expect(r).toMatchObject({ events: n, messages: n * endpoints });
    return { ctx, endpointIds };
  }

  it('fans each event out once: a second pass finds the cursor past it', async () => {
    const { ctx } = await fannedOut(3);
    const d = ctx.container.store.deliveries;
    expect(await d.outboxAhead()).toBe(false);
    const plan = fanOutPlanner(() => Date.now());
    expect(await d.fanOut(plan, 500, WEBHOOK_PLANS)).toEqual({ events: 0, messages: 0, endpointIds: [] });
    await ctx.load(reviews('alpha', 1));
    expect(await d.outboxAhead()).toBe(true);
    expect((await d.fanOut(plan, 500, WEBHOOK_PLANS)).messages).toBe(1);
  });

  it('reads the batch of events before it takes the write lock: the lock covers only the writes', async () => {
    // On SQLite the lock is the one writer of the database, and an upload's write on the main thread
    // that meets it sleeps the event loop in SQLite's busy handler: reading the batch (its payloads)
    // under it was most of the time it was held.
    const ctx = await webhookContext(dialect);
    open.push(ctx);
    await ctx.container.webhooks.create(ctx.ownerId, { url: 'http://127.0.0.1:9/x', events: ['*'] });
    await ctx.load(reviews('alpha', 3));
    const seen: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery({ node }) {
        const text = JSON.stringify(node);
        if (node.kind === 'UpdateQueryNode' && text.includes('"webhook_state"')) seen.push('lock or cursor');
        else if (node.kind === 'SelectQueryNode' && text.includes('"name":"outbox"'))
          seen.push('read events');
        else if (node.kind === 'InsertQueryNode') seen.push('write messages');
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const store = ctx.container.store;
    const d = new KyselyDeliveryStore(store.kysely.withPlugin(recorder), store.caps);
    expect(await d.fanOut(fanOutPlanner(Date.now), 500, WEBHOOK_PLANS)).toMatchObject({
      events: 3,
      messages: 3,
    });
    expect(seen).toEqual(['read events', 'lock or cursor', 'write messages', 'lock or cursor']);
  });

  it.skipIf(dialect !== 'postgres')(
    'leaves the events it read to the worker that moved the cursor while it waited for the lock',
    async () => {
      const ctx = await webhookContext(dialect);
      open.push(ctx);
      await ctx.container.webhooks.create(ctx.ownerId, { url: 'http://127.0.0.1:9/x', events: ['*'] });
      await ctx.load(reviews('alpha', 3));
      const db = ctx.container.store.kysely;
      // Another worker, mid fan-out: it holds the cursor's row and moves it past the three events.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const other = db.transaction().execute(async (trx) => {
        await sql`update webhook_state set outbox_seq = (select max(seq) from outbox) where id = 1`.execute(
          trx,
        );
        locked();
        await held;
      });
      await isLocked;
      const fan = ctx.container.store.deliveries.fanOut(fanOutPlanner(Date.now), 500, WEBHOOK_PLANS);
      await sleep(300); // it reads the three events (the cursor it sees is the committed one), then waits
      release();
      await other;
      expect(await fan).toEqual({ events: 0, messages: 0, endpointIds: [] });
      const n = await db
        .selectFrom('webhook_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(0);
    },
  );

  it('claims at most the slots asked per endpoint, never a claimed message again until its lease ends', async () => {
    const { ctx, endpointIds } = await fannedOut(5, 2);
    const [a, b] = endpointIds as [string, string];
    const d = ctx.container.store.deliveries;
    const now = Date.now();
    const due = await dueAt(d, now);
    expect(due.map((x) => x.endpointId).sort()).toEqual([a, b].sort());
    expect(await dueAt(d, now, { excludeEndpoints: [a] })).toEqual([
      expect.objectContaining({ endpointId: b }),
    ]);

    const first = await d.claim(
      new Map([
        [a, 2],
        [b, 4],
      ]),
      now,
      now + 10_000,
      WEBHOOK_PLANS,
    );
    expect(first.filter((m) => m.endpointId === a)).toHaveLength(2);
    expect(first.filter((m) => m.endpointId === b)).toHaveLength(4);
    expect(new Set(first.map((m) => m.claimToken)).size).toBe(1);
    expect(first.find((m) => m.endpointId === a)).toMatchObject({
      url: 'http://127.0.0.1:9/0',
      failingSince: null,
      attempts: 0,
    });
    expect(first[0]!.secrets.current).toMatch(/^whsec_/);

    const second = await d.claim(
      new Map([
        [a, 10],
        [b, 10],
      ]),
      now,
      now + 10_000,
      WEBHOOK_PLANS,
    );
    expect(second.filter((m) => m.endpointId === a)).toHaveLength(3);
    expect(second.filter((m) => m.endpointId === b)).toHaveLength(1);
    expect(second.some((m) => first.some((f) => f.id === m.id))).toBe(false);
    expect(second[0]!.claimToken).not.toBe(first[0]!.claimToken);
    expect(await d.claim(new Map([[a, 10]]), now, now + 10_000, WEBHOOK_PLANS)).toEqual([]);
    expect(await dueAt(d, now)).toEqual([]);

    // The lease ends: every message is due again, under a new claim.
    const later = await d.claim(new Map([[a, 10]]), now + 10_000, now + 20_000, WEBHOOK_PLANS);
    expect(later).toHaveLength(5);
  });

  it("gives no message to an account whose plan has no webhooks and claims none of its waiting ones until it is upgraded back; dueEndpoints names each endpoint's account", async () => {
    // The rule is plans.ts' (enterprise access), as the webhooks API's.
    expect(WEBHOOK_PLANS).toEqual(['enterprise', 'custom']);
    const { ctx, endpointIds } = await fannedOut(2);
    const mine = endpointIds[0]!;
    const hooks = ctx.container.webhooks;
    const theirs = (await hooks.create(ctx.otherId, { url: 'http://127.0.0.1:9/other', events: ['*'] }))
      .endpoint.id;
    const off = (await hooks.create(ctx.ownerId, { url: 'http://127.0.0.1:9/off', events: ['*'] })).endpoint
      .id;
    await hooks.update(ctx.ownerId, off, { enabled: false });
    const d = ctx.container.store.deliveries;
    const plan = fanOutPlanner(() => Date.now());
    const messagesOf = async (endpointId: string) =>
      (
        await ctx.container.store.kysely
          .selectFrom('webhook_messages')
          .select(['status', 'claim_token'])
          .where('endpoint_id', '=', endpointId)
          .execute()
      ).map((m) => [m.status, m.claim_token]);

    // Downgraded as an operator does it (PATCH /admin/v1/accounts/{name}, `accounts plan`).
    await ctx.container.operator.updateAccount('owner', { plan: 'pro' }, 'test');
    await ctx.load([...reviews('alpha', 2), ...reviews('beta', 1)]);
    // No message at all for the owner's endpoints, not even a failed one for its disabled endpoint.
    expect(await d.fanOut(plan, 500, WEBHOOK_PLANS)).toEqual({
      events: 3,
      messages: 1,
      endpointIds: [theirs],
    });
    expect(await messagesOf(off)).toEqual([]);
    const now = Date.now();
    expect(await dueAt(d, now)).toEqual([
      { endpointId: theirs, accountId: ctx.otherId, oldestDueMs: expect.any(Number) },
    ]);
    // Asked for them directly (the plan changed after the worker's look): none is claimed; they wait.
    expect(await d.claim(new Map([[mine, 10]]), now, now + 10_000, WEBHOOK_PLANS)).toEqual([]);
    expect(await messagesOf(mine)).toEqual([
      ['pending', null],
      ['pending', null],
    ]);

    // Back on a plan with webhooks: the waiting messages are due and claimed, new events fan out again.
    await ctx.container.operator.updateAccount('owner', { plan: 'custom' }, 'test');
    const due = await dueAt(d, now);
    expect(due.map((x) => [x.endpointId, x.accountId]).sort()).toEqual(
      [
        [mine, ctx.ownerId],
        [theirs, ctx.otherId],
      ].sort(),
    );
    expect((await dueAt(d, now, { excludeAccounts: [ctx.otherId] })).map((x) => x.endpointId)).toEqual([
      mine,
    ]);
    const claimed = await d.claim(new Map([[mine, 10]]), now, now + 10_000, WEBHOOK_PLANS);
    expect(claimed.map((m) => [m.endpointId, m.accountId])).toEqual([
      [mine, ctx.ownerId],
      [mine, ctx.ownerId],
    ]);
    await ctx.load(reviews('alpha', 1));
    expect((await d.fanOut(plan, 500, WEBHOOK_PLANS)).messages).toBe(2);
    expect(await messagesOf(off)).toEqual([['failed', null]]);
  });

  it('writes a batch of outcomes as WebhookStore.record writes each one; a lapsed claim records its attempt but moves nothing', async () => {
    const { ctx, endpointIds } = await fannedOut(4);
    const ep = endpointIds[0]!;
    const d = ctx.container.store.deliveries;
    const now = Date.now();
    const claimed = await d.claim(new Map([[ep, 4]]), now, now + 10_000, WEBHOOK_PLANS);
    expect(claimed).toHaveLength(4);
    const [m1, m2, m3, m4] = claimed as [
      (typeof claimed)[0],
      (typeof claimed)[0],
      (typeof claimed)[0],
      (typeof claimed)[0],
    ];
    const at = new Date(now).toISOString();
    const record = (
      m: (typeof claimed)[0],
      over: Partial<AttemptRecord> & Pick<AttemptRecord, 'message'>,
    ): AttemptRecord => ({
      messageId: m.id,
      endpointId: ep,
      claimToken: m.claimToken,
      attempt: {
        attemptedAt: at,
        httpStatus: 500,
        latencyMs: 7,
        error: 'HTTP 500 (not 2xx)',
        trigger: 'scheduled',
      },
      endpoint: null,
      ...over,
    });
    const retry = { status: 'pending' as const, nextAttemptAtMs: now + 5_000 };
    // The same outcome through the one-by-one path and through the batch.
    await ctx.container.store.webhooks.record(record(m1, { message: retry }));
    const gone = await d.recordAll([
      record(m2, { message: retry }),
      record(m3, { message: retry, claimToken: 'clm_someone_else' }),
      record(m4, {
        message: { status: 'succeeded', nextAttemptAtMs: null },
        attempt: { attemptedAt: at, httpStatus: 204, latencyMs: 3, error: null, trigger: 'scheduled' },
        endpoint: { failingSince: null },
      }),
      { ...record(m1, { message: retry }), messageId: 'dlv_deleted_meanwhile' },
    ]);
    expect(gone).toBe(1);
    const rows = await ctx.container.store.kysely
      .selectFrom('webhook_messages')
      .selectAll()
      .where('endpoint_id', '=', ep)
      .execute();
    const row = (id: string) => {
      const r = rows.find((x) => x.id === id)!;
      return {
        status: r.status,
        attempts: Number(r.attempts),
        next: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
        token: r.claim_token,
        last: r.last_attempt_at,
      };
    };
    expect(row(m2.id)).toEqual(row(m1.id));
    expect(row(m1.id)).toEqual({ status: 'pending', attempts: 1, next: now + 5_000, token: null, last: at });
    // Another claim holds m3: its attempt is logged, the message is left to that claim.
    expect(row(m3.id)).toEqual({
      status: 'pending',
      attempts: 0,
      next: now + 10_000,
      token: m3.claimToken,
      last: null,
    });
    expect(row(m4.id)).toEqual({ status: 'succeeded', attempts: 1, next: null, token: null, last: at });
    const attempts = await ctx.container.store.kysely
      .selectFrom('webhook_attempts')
      .select(['message_id', 'http_status', 'latency_ms', 'error', 'trigger', 'attempted_at'])
      .orderBy('id')
      .execute();
    expect(attempts.map((a) => a.message_id).sort()).toEqual([m1.id, m2.id, m3.id, m4.id].sort());
    const a1 = attempts.find((a) => a.message_id === m1.id)!;
    const a2 = attempts.find((a) => a.message_id === m2.id)!;
    expect({ ...a2, message_id: '' }).toEqual({ ...a1, message_id: '' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { planClaims } from '../../src/core/webhooks/claim-plan.ts';
import { fanOutPlanner } from '../../src/core/webhooks/fan-out.ts';
import type { AttemptRecord } from '../../src/core/webhooks/ports.ts';
import type { TestContext } from '../support/context.ts';
import { DIALECTS } from '../support/databases.ts';
import { reviews, webhookContext } from './support.ts';

type Ctx = TestContext & { ownerId: number; otherId: number };

describe('planClaims: how free slots are shared', () => {
  it('gives an endpoint at its cap nothing and deals the rest round the due endpoints, in turn order', () => {
    const inFlight = new Map([
      ['busy', 10],
      ['half', 8],
    ]);
    expect([...planClaims(['busy', 'half', 'a', 'b'], inFlight, 10, 7)]).toEqual([
      ['half', 2],
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('never gives more than an endpoint has room for, nor more than is free', () => {
    expect([...planClaims(['a', 'b'], new Map(), 3, 100)]).toEqual([
      ['a', 3],
      ['b', 3],
    ]);
    expect([...planClaims(['a', 'b', 'c'], new Map(), 3, 2)]).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(planClaims(['a'], new Map(), 3, 0).size).toBe(0);
  });
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
    const r = await ctx.container.store.deliveries.fanOut(plan, 500);
    expect(r).toMatchObject({ events: n, messages: n * endpoints });
    return { ctx, endpointIds };
  }

  it('fans each event out once: a second pass finds the cursor past it', async () => {
    const { ctx } = await fannedOut(3);
    const d = ctx.container.store.deliveries;
    expect(await d.outboxAhead()).toBe(false);
    const plan = fanOutPlanner(() => Date.now());
    expect(await d.fanOut(plan, 500)).toEqual({ events: 0, messages: 0, endpointIds: [] });
    await ctx.load(reviews('alpha', 1));
    expect(await d.outboxAhead()).toBe(true);
    expect((await d.fanOut(plan, 500)).messages).toBe(1);
  });

  it('claims at most the slots asked per endpoint, never a claimed message again until its lease ends', async () => {
    const { ctx, endpointIds } = await fannedOut(5, 2);
    const [a, b] = endpointIds as [string, string];
    const d = ctx.container.store.deliveries;
    const now = Date.now();
    const due = await d.dueEndpoints(now, [], 10);
    expect(due.map((x) => x.endpointId).sort()).toEqual([a, b].sort());
    expect(await d.dueEndpoints(now, [a], 10)).toEqual([expect.objectContaining({ endpointId: b })]);

    const first = await d.claim(
      new Map([
        [a, 2],
        [b, 4],
      ]),
      now,
      now + 10_000,
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
    );
    expect(second.filter((m) => m.endpointId === a)).toHaveLength(3);
    expect(second.filter((m) => m.endpointId === b)).toHaveLength(1);
    expect(second.some((m) => first.some((f) => f.id === m.id))).toBe(false);
    expect(second[0]!.claimToken).not.toBe(first[0]!.claimToken);
    expect(await d.claim(new Map([[a, 10]]), now, now + 10_000)).toEqual([]);
    expect(await d.dueEndpoints(now, [], 10)).toEqual([]);

    // The lease ends: every message is due again, under a new claim.
    const later = await d.claim(new Map([[a, 10]]), now + 10_000, now + 20_000);
    expect(later).toHaveLength(5);
  });

  it('writes a batch of outcomes as WebhookStore.record writes each one; a lapsed claim records its attempt but moves nothing', async () => {
    const { ctx, endpointIds } = await fannedOut(4);
    const ep = endpointIds[0]!;
    const d = ctx.container.store.deliveries;
    const now = Date.now();
    const claimed = await d.claim(new Map([[ep, 4]]), now, now + 10_000);
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import type { Account } from '../../src/core/accounts/model.ts';
import { DAY_MS, HOUR_MS } from '../../src/core/clock.ts';
import type { UsageSeries } from '../../src/core/usage/model.ts';
import { bearer, createTestContext, T0, type TestContext } from '../support/context.ts';
import { DIALECTS } from '../support/databases.ts';

const FIXTURE = [
  {
    type: 'vendor',
    slug: 'apex',
    name: 'Apex',
    location: 'Canada',
    verified: true,
    listingPlan: 'premium',
    website: 'https://apex.example',
  },
];

const H0 = T0 / HOUR_MS;

/** The one point of (key, variant) at hour `hour` of a series list. */
const at = (series: UsageSeries[], keyId: string, scope: 'a' | 'b', t: number) =>
  series.find((s) => s.keyId === keyId && s.scope === scope)?.points.find((p) => p.t === t);

/**
 * Usage is what the limiter counts, recorded once by the one admission decision whichever path
 * answered (the guard over inject, the fast path over a real socket): 304s refunded, 429s apart,
 * shown at once (before a flush) and the same after it.
 */
describe.each(DIALECTS)('usage per key, variant and hour over HTTP (%s)', (dialect) => {
  let ctx: TestContext;
  let base: string;
  let account: Account;

  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    expect((await ctx.load(FIXTURE)).ok).toBe(true);
    account = await createAccount(ctx.container.store, {
      name: 'metered',
      plan: 'custom',
      rateLimitA: 1_000,
      rateLimitB: 8,
    });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx?.close());

  const inject = (url: string, key: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ url, headers: { ...bearer(key), ...headers } });
  const overSocket = async (url: string, key: string) => {
    const before = ctx.app.fastPath.served;
    const r = await fetch(`${base}${url}`, { headers: bearer(key) });
    await r.arrayBuffer();
    return { status: r.status, fast: ctx.app.fastPath.served === before + 1 };
  };

  it('counts exactly: guard and fast path alike, a 304 not, a 400 yes, 429s apart; the same after a flush', async () => {
    const { key, info } = await ctx.container.accountKeys.create(account.id, 'metered');
    await ctx.container.freshness.refresh();
    // Variant B, limit 8: 2 over inject, one 304 (refunded), one 400 (counted), then the socket.
    const first = await inject('/api/v1/vendors', key);
    expect(first.statusCode).toBe(200);
    expect((await inject('/api/v1/vendors', key)).statusCode).toBe(200);
    expect(
      (await inject('/api/v1/vendors', key, { 'if-none-match': first.headers.etag as string })).statusCode,
    ).toBe(304);
    expect((await inject('/api/v1/vendors?limit=abc', key)).statusCode).toBe(400);
    let fast = 0;
    let counted = 3;
    while (counted < 8) {
      const r = await overSocket('/api/v1/vendors', key);
      expect(r.status).toBe(200);
      counted++;
      if (r.fast) fast++;
    }
    expect(fast, 'some of them were answered by the fast path').toBeGreaterThan(0);
    // Over the limit: 429s, counted apart, on both paths.
    expect((await overSocket('/api/v1/vendors', key)).status).toBe(429);
    expect((await inject('/api/v1/vendors', key)).statusCode).toBe(429);
    expect((await inject('/api/v1/vendors', key)).statusCode).toBe(429);
    // Variant A: five over the socket (the first fills the cache), two over inject.
    for (let i = 0; i < 5; i++) expect((await overSocket('/v1/vendors', key)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await inject('/v1/vendors', key)).statusCode).toBe(200);
    // Not counted at all: an unknown route (a peek), another key's request.
    expect((await inject('/api/v1/nowhere', key)).statusCode).toBe(404);

    const t = H0 * HOUR_MS;
    const before = await ctx.container.usage.hourly(account.id, 3);
    expect(at(before, info.id, 'b', t)).toEqual({ t, requests: 8, limited: 3 });
    expect(at(before, info.id, 'a', t)).toEqual({ t, requests: 7, limited: 0 });
    await ctx.container.usageMeter.flush();
    const after = await ctx.container.usage.hourly(account.id, 3);
    expect(after).toEqual(before);
    // In the store itself, not only in memory.
    const rows = await ctx.container.store.usage.hourly(account.id, H0);
    expect(
      rows
        .filter((r) => r.keyId === info.id)
        .map((r) => [r.scope, r.requests, r.limited])
        .sort(),
    ).toEqual([
      ['a', 7, 0],
      ['b', 8, 3],
    ]);
    // Last used: the latest request, counted or refused.
    expect((await ctx.container.accountKeys.list(account.id)).find((k) => k.id === info.id)?.lastUsedAt).toBe(
      new Date(T0).toISOString(),
    );

    // Now, from the limiter: B used up (rolling 24 h), A 7 of 1,000 until the next UTC hour.
    const now = await ctx.container.usage.current(account.id);
    expect(now.filter((u) => u.keyId === info.id).sort((x, y) => x.scope.localeCompare(y.scope))).toEqual([
      {
        keyId: info.id,
        scope: 'a',
        used: 7,
        limit: 1_000,
        resetsAt: new Date((H0 + 1) * HOUR_MS).toISOString(),
      },
      { keyId: info.id, scope: 'b', used: 8, limit: 8, resetsAt: new Date(T0 + DAY_MS).toISOString() },
    ]);
  });

  it('hourly and daily series are zero-filled, UTC-aligned, newest last, and a request shows at once', async () => {
    const { key, info } = await ctx.container.accountKeys.create(account.id, 'series');
    await ctx.container.freshness.refresh();
    ctx.clock.set(T0 + 2 * HOUR_MS + 5_000);
    try {
      expect((await inject('/v1/vendors', key)).statusCode).toBe(200);
      const hourly = await ctx.container.usage.hourly(account.id, 168);
      const mine = hourly.filter((s) => s.keyId === info.id);
      expect(mine.map((s) => s.scope)).toEqual(['a', 'b']);
      for (const s of mine) {
        expect(s.points).toHaveLength(168);
        expect(s.points.at(-1)!.t).toBe((H0 + 2) * HOUR_MS);
        expect(s.points[0]!.t).toBe((H0 + 2 - 167) * HOUR_MS);
      }
      expect(mine[0]!.points.at(-1)).toEqual({ t: (H0 + 2) * HOUR_MS, requests: 1, limited: 0 });
      expect(mine[0]!.points.slice(0, -1).every((p) => p.requests === 0 && p.limited === 0)).toBe(true);
      const daily = await ctx.container.usage.daily(account.id, 90);
      const day = Math.floor(T0 / DAY_MS) * DAY_MS;
      const a = daily.find((s) => s.keyId === info.id && s.scope === 'a')!;
      expect(a.points).toHaveLength(90);
      expect(a.points.at(-1)).toEqual({ t: day, requests: 1, limited: 0 });
    } finally {
      ctx.clock.set(T0);
    }
  });

  it.each([
    ['hours', 0],
    ['hours', 169],
    ['hours', 1.5],
    ['days', 0],
    ['days', 91],
    ['days', Number.NaN],
  ] as const)('refuses %s = %s (invalid_parameter naming it)', async (name, n) => {
    const call =
      name === 'hours' ? ctx.container.usage.hourly(account.id, n) : ctx.container.usage.daily(account.id, n);
    await expect(call).rejects.toMatchObject({ code: 'invalid_parameter', details: { parameter: name } });
  });

  it('a free account has no variant; an unknown account is not_found', async () => {
    const free = await createAccount(ctx.container.store, { name: 'freeloader', plan: 'free' });
    await ctx.container.accountKeys.create(free.id, null);
    expect(await ctx.container.usage.current(free.id)).toEqual([]);
    expect(await ctx.container.usage.hourly(free.id, 24)).toEqual([]);
    await expect(ctx.container.usage.current(987_654)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a revoked key leaves the "now" list but its past usage stays in the charts', async () => {
    const { key, info } = await ctx.container.accountKeys.create(account.id, 'gone');
    await ctx.container.freshness.refresh();
    expect((await inject('/v1/vendors', key)).statusCode).toBe(200);
    await ctx.container.accountKeys.revoke(account.id, info.id);
    expect((await ctx.container.usage.current(account.id)).some((u) => u.keyId === info.id)).toBe(false);
    const series = await ctx.container.usage.hourly(account.id, 1);
    expect(series.filter((s) => s.keyId === info.id).map((s) => [s.scope, s.points[0]!.requests])).toEqual([
      ['a', 1],
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/core/accounts/model.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../src/core/clock.ts';
import type { UsageRow } from '../../src/core/usage/ports.ts';
import { retainedFromHour, UsageMeter } from '../../src/core/usage/usage-meter.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore, T0 } from './support.ts';

const H0 = Math.floor(T0 / HOUR_MS);
const D0 = Math.floor(T0 / DAY_MS);

const row = (
  keyId: string,
  hour: number,
  requests: number,
  limited = 0,
  lastAt: number | null = null,
): UsageRow => ({
  keyId,
  scope: 'b',
  hour,
  requests,
  limited,
  lastAt,
});

describe.each(DIALECTS)('usage store (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let acme: Account;
  let zeta: Account;
  let n = 0;
  /** A new key of the account, so each case starts from no usage. */
  const newKey = async (account: Account): Promise<string> => {
    const id = `key_usage_${++n}`;
    await store.keys.insert({
      id,
      accountId: account.id,
      name: null,
      prefix: `prk_live_U${n}`,
      hash: `h-${n}`,
    });
    return id;
  };

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    acme = await store.accounts.create({ name: 'acme', plan: 'enterprise' });
    zeta = await store.accounts.create({ name: 'zeta', plan: 'pro' });
  });
  afterAll(async () => fresh?.close());

  it('adds rather than overwrites: requests and 429s add up, the last use is the later one', async () => {
    const key = await newKey(acme);
    await store.usage.add([row(key, H0, 5, 1, T0 + 10)]);
    await store.usage.add([row(key, H0, 3, 2, T0 + 5), { ...row(key, H0, 7), scope: 'a' }]);
    await store.usage.add([row(key, H0, -1, 0, null)]); // a refund flushed after its request
    const rows = await store.usage.hourly(acme.id, H0);
    expect(rows.filter((r) => r.keyId === key).sort((x, y) => x.scope.localeCompare(y.scope))).toEqual([
      { keyId: key, scope: 'a', hour: H0, requests: 7, limited: 0, lastAt: null },
      { keyId: key, scope: 'b', hour: H0, requests: 7, limited: 3, lastAt: T0 + 10 },
    ]);
    expect((await store.usage.lastUsed(acme.id)).get(key)).toBe(T0 + 10);
  });

  it('merges duplicate rows of one statement (PostgreSQL refuses to touch one row twice)', async () => {
    const key = await newKey(acme);
    await store.usage.add([row(key, H0, 1, 0, T0), row(key, H0, 2, 1, T0 + 1), row(key, H0 - 1, 4)]);
    const rows = (await store.usage.hourly(acme.id, H0 - 1)).filter((r) => r.keyId === key);
    expect(rows.sort((x, y) => x.hour - y.hour)).toEqual([
      { keyId: key, scope: 'b', hour: H0 - 1, requests: 4, limited: 0, lastAt: null },
      { keyId: key, scope: 'b', hour: H0, requests: 3, limited: 1, lastAt: T0 + 1 },
    ]);
  });

  it("reads only the account's own keys, from the hour asked", async () => {
    const mine = await newKey(acme);
    const theirs = await newKey(zeta);
    await store.usage.add([row(mine, H0 - 3, 1), row(mine, H0, 2), row(theirs, H0, 9, 0, T0)]);
    const acmeRows = await store.usage.hourly(acme.id, H0 - 2);
    expect(acmeRows.some((r) => r.keyId === theirs)).toBe(false);
    expect(acmeRows.filter((r) => r.keyId === mine).map((r) => r.hour)).toEqual([H0]);
    expect((await store.usage.lastUsed(acme.id)).has(theirs)).toBe(false);
    expect((await store.usage.lastUsed(zeta.id)).get(theirs)).toBe(T0);
  });

  it('sums per UTC day: hour 23 and hour 24 of a day fall on two days', async () => {
    const key = await newKey(acme);
    const dayStart = D0 * 24;
    await store.usage.add([
      row(key, dayStart - 1, 10, 1), // the last hour of yesterday
      row(key, dayStart, 20, 2), // the first hour of today
      row(key, dayStart + 23, 30, 0),
      { ...row(key, dayStart + 5, 7), scope: 'a' },
    ]);
    const days = (await store.usage.daily(acme.id, D0 - 1)).filter((r) => r.keyId === key);
    expect(days.sort((x, y) => x.day - y.day || x.scope.localeCompare(y.scope))).toEqual([
      { keyId: key, scope: 'b', day: D0 - 1, requests: 10, limited: 1 },
      { keyId: key, scope: 'a', day: D0, requests: 7, limited: 0 },
      { keyId: key, scope: 'b', day: D0, requests: 50, limited: 2 },
    ]);
    expect((await store.usage.daily(acme.id, D0)).filter((r) => r.keyId === key)).toHaveLength(2);
  });

  it('retention deletes the hours before the boundary and keeps the boundary hour', async () => {
    const key = await newKey(acme);
    const from = retainedFromHour(T0);
    // Today and 90 whole days before it are kept.
    expect(from).toBe((D0 - 90) * 24);
    await store.usage.add([row(key, from - 1, 1), row(key, from, 2), row(key, H0, 3)]);
    expect(await store.usage.prune(from)).toBeGreaterThanOrEqual(1);
    const left = (await store.usage.hourly(acme.id, 0)).filter((r) => r.keyId === key).map((r) => r.hour);
    expect(left.sort((x, y) => x - y)).toEqual([from, H0]);
  });

  it('two meters on one database (two instances) add up; a flush keeps the counts exact', async () => {
    const key = await newKey(acme);
    const second = await fresh.openSecond();
    const clock = new ManualClock(T0);
    const one = new UsageMeter({ clock, store: store.usage, flushIntervalMs: 3_600_000 });
    const two = new UsageMeter({ clock, store: second.usage, flushIntervalMs: 3_600_000 });
    try {
      for (let i = 0; i < 7; i++) one.counted(key, 'b', T0 + i);
      for (let i = 0; i < 5; i++) two.counted(key, 'b', T0 + 100 + i);
      two.limited(key, 'b', T0 + 200);
      one.refunded(key, 'b', T0 + 1);
      await Promise.all([one.flush(), two.flush()]);
      // Counted again after a flush: the next flush adds only the new ones.
      one.counted(key, 'b', T0 + 300);
      await one.flush();
      await two.flush(); // nothing new: writes nothing
      const rows = (await store.usage.hourly(acme.id, H0)).filter((r) => r.keyId === key);
      expect(rows).toEqual([
        { keyId: key, scope: 'b', hour: H0, requests: 7 - 1 + 5 + 1, limited: 1, lastAt: T0 + 300 },
      ]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('the meter prunes old rows on its first flush (and then once an hour)', async () => {
    const key = await newKey(acme);
    const old = retainedFromHour(T0) - 24;
    await store.usage.add([row(key, old, 5)]);
    const clock = new ManualClock(T0);
    const meter = new UsageMeter({ clock, store: store.usage, flushIntervalMs: 3_600_000 });
    try {
      meter.counted(key, 'a', T0);
      await meter.flush();
      const hours = (await store.usage.hourly(acme.id, 0)).filter((r) => r.keyId === key).map((r) => r.hour);
      expect(hours).toEqual([H0]);
    } finally {
      await meter.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { type Container, createContainer } from '../../../src/container.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import { prepareDemo } from '../../../src/main/demo-key.ts';
import { DEMO_ACCOUNT } from '../../../src/seed/demo-dataset.ts';
import { demoUsage, seedDemoUsage } from '../../../src/seed/demo-usage.ts';
import { openFreshStore } from '../../storage/support.ts';
import { DIALECTS } from '../../support/databases.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 34, 56, 0);
const HOUR = Math.floor(NOW / HOUR_MS);

describe('the demo key’s usage history', () => {
  const rows = demoUsage('key_demo', NOW);

  it('is deterministic for a key and a time', () => {
    expect(demoUsage('key_demo', NOW)).toEqual(rows);
  });

  it('covers the 90 days before the current hour, both variants, nothing in the current hour or later', () => {
    const hours = rows.map((r) => r.hour);
    expect(Math.min(...hours)).toBe(HOUR - 90 * 24);
    expect(Math.max(...hours)).toBe(HOUR - 1);
    expect(new Set(rows.map((r) => r.scope))).toEqual(new Set(['a', 'b']));
    // Nearly every hour has requests on both variants (quiet nights may have none on B).
    expect(rows.filter((r) => r.scope === 'a')).toHaveLength(90 * 24);
    expect(rows.filter((r) => r.scope === 'b').length).toBeGreaterThan(90 * 24 * 0.9);
    for (const r of rows) {
      expect(r.lastAt).toBeGreaterThanOrEqual(r.hour * HOUR_MS);
      expect(r.lastAt).toBeLessThan((r.hour + 1) * HOUR_MS);
    }
  });

  it('stays within the limits it shows, with some 429s on both variants', () => {
    for (const r of rows) if (r.scope === 'a') expect(r.requests).toBeLessThanOrEqual(10_000);
    const perDayB = new Map<number, number>();
    for (const r of rows)
      if (r.scope === 'b')
        perDayB.set(Math.floor(r.hour / 24), (perDayB.get(Math.floor(r.hour / 24)) ?? 0) + r.requests);
    expect(Math.max(...perDayB.values())).toBeLessThanOrEqual(1_000);
    const limited = (scope: 'a' | 'b') => rows.filter((r) => r.scope === scope && r.limited > 0).length;
    expect(limited('a')).toBeGreaterThan(0);
    expect(limited('b')).toBeGreaterThan(0);
    // Mostly not limited: a chart of use with a few refusals, not a wall of them.
    expect(limited('a')).toBeLessThan(rows.length / 20);
    expect(rows.reduce((s, r) => s + r.requests, 0)).toBeGreaterThan(1_000_000);
  });
});

describe.each(DIALECTS)('seedDemoUsage (%s)', (dialect) => {
  it('writes the rows once per account; a second call (a replaced demo key) adds nothing', async () => {
    const fresh = await openFreshStore(dialect);
    try {
      const { store } = fresh;
      const account = await store.accounts.create({ name: 'demo-ish', plan: 'enterprise' });
      for (const id of ['key_first', 'key_second'])
        await store.keys.insert({
          id,
          accountId: account.id,
          name: null,
          prefix: `prk_live_${id}`,
          hash: id,
        });
      const deps = { usage: store.usage, clock: new ManualClock(NOW) };
      const written = await seedDemoUsage(deps, account.id, 'key_first');
      expect(written).toBe(demoUsage('key_first', NOW).length);
      expect(await seedDemoUsage(deps, account.id, 'key_second')).toBe(0);
      const days = await store.usage.daily(account.id, Math.floor(NOW / DAY_MS) - 89);
      expect(new Set(days.map((d) => d.keyId))).toEqual(new Set(['key_first']));
    } finally {
      await fresh.close();
    }
  });
});

describe('first start with the demo dataset (SQLite)', () => {
  let dir: string;
  let container: Container;
  const clock = new ManualClock(NOW);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'purerank-demo-usage-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'demo.db')}`, PURERANK_SEED_DEMO: 'true' });
    container = await createContainer(config, { clock, limiter: 'memory' });
  });
  afterAll(async () => {
    await container?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the demo key has 90 days of usage on the dashboard, and a restart adds none', async () => {
    const demo = await prepareDemo(container);
    expect(demo.key).toMatch(/^prk_live_/);
    const account = (await container.store.accounts.findByName(DEMO_ACCOUNT))!;
    const daily = await container.usage.daily(account.id, 90);
    const [key] = await container.accountKeys.list(account.id);
    const series = daily.filter((s) => s.keyId === key!.id);
    expect(series.map((s) => s.scope)).toEqual(['a', 'b']);
    for (const s of series) expect(s.points.filter((p) => p.requests > 0).length).toBeGreaterThanOrEqual(89);
    expect(key!.lastUsedAt).not.toBeNull();
    const before = await container.store.kysely
      .selectFrom('usage_hourly')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await prepareDemo(container);
    const after = await container.store.kysely
      .selectFrom('usage_hourly')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a demo key rolled and expired is replaced at the next start, not printed', async () => {
    const first = await prepareDemo(container);
    const account = (await container.store.accounts.findByName(DEMO_ACCOUNT))!;
    const [old] = (await container.accountKeys.list(account.id)).filter((k) => k.state === 'active');
    await container.accountKeys.roll(account.id, old!.id, 3600);
    // A start has empty key caches (here no app listens for the keys version to empty them).
    container.auth.invalidate();
    expect((await prepareDemo(container)).key).toBe(first.key); // still within its overlap
    clock.advance(3_600_000);
    const next = await prepareDemo(container);
    expect(next.key).not.toBe(first.key);
    expect(next.key).toMatch(/^prk_live_/);
  });
});

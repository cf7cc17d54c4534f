import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitHitCount } from '../../src/core/ratelimit/model.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore } from './support.ts';

/** A realistic epoch second at the start of a minute (beyond 32-bit ms, well inside a JS number). */
const S = 1_780_000_020;
/** Hits are stored per minute, stamped with the minute's last second (never earlier than the hit). */
const bucket = (second: number) => Math.floor(second / 60) * 60 + 59;
const B0 = bucket(S);
const B1 = bucket(S + 60);
const sorted = (rows: RateLimitHitCount[]) =>
  [...rows].sort(
    (a, b) => a.second - b.second || a.keyId.localeCompare(b.keyId) || a.scope.localeCompare(b.scope),
  );

describe.each(DIALECTS)('storage contract: rate-limit hits (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
  });
  afterAll(async () => fresh?.close());

  it('adds counts per minute, stamped with the minute’s last second, summing on conflict', async () => {
    expect(S % 60).toBe(0);
    await store.rateLimits.addHits([]);
    await store.rateLimits.addHits([
      { keyId: 'k1', scope: 'a', second: S, count: 3 },
      { keyId: 'k1', scope: 'a', second: S + 59, count: 2 },
      { keyId: 'k1', scope: 'b', second: S + 30, count: 1 },
      { keyId: 'k2', scope: 'a', second: S + 60, count: 7 },
    ]);
    await store.rateLimits.addHits([{ keyId: 'k1', scope: 'a', second: S + 10, count: 10 }]);
    expect(sorted(await store.rateLimits.loadHits(S))).toEqual([
      { keyId: 'k1', scope: 'a', second: B0, count: 15 },
      { keyId: 'k1', scope: 'b', second: B0, count: 1 },
      { keyId: 'k2', scope: 'a', second: B1, count: 7 },
    ]);
  });

  it('never stamps a hit earlier than it happened, nor more than 59 s later', async () => {
    for (let second = S; second < S + 120; second += 7) {
      expect(bucket(second)).toBeGreaterThanOrEqual(second);
      expect(bucket(second) - second).toBeLessThanOrEqual(59);
    }
  });

  it('does not mutate the caller’s rows when merging duplicates', async () => {
    const rows: RateLimitHitCount[] = [
      { keyId: 'm', scope: 'a', second: S + 50, count: 1 },
      { keyId: 'm', scope: 'a', second: S + 50, count: 1 },
    ];
    await store.rateLimits.addHits(rows);
    expect(rows.map((r) => r.count)).toEqual([1, 1]);
    expect(rows.map((r) => r.second)).toEqual([S + 50, S + 50]);
  });

  it('records refunds as negative counts and hides rows that net to zero or less', async () => {
    await store.rateLimits.addHits([{ keyId: 'k3', scope: 'b', second: S + 2, count: 2 }]);
    await store.rateLimits.addHits([{ keyId: 'k3', scope: 'b', second: S + 2, count: -1 }]);
    expect((await store.rateLimits.loadHits(S)).filter((r) => r.keyId === 'k3')).toEqual([
      { keyId: 'k3', scope: 'b', second: B0, count: 1 },
    ]);
    await store.rateLimits.addHits([{ keyId: 'k3', scope: 'b', second: S + 2, count: -1 }]);
    expect((await store.rateLimits.loadHits(S)).filter((r) => r.keyId === 'k3')).toEqual([]);
    // A refund that arrives before its hit (persisted in another flush) still nets out.
    await store.rateLimits.addHits([{ keyId: 'k4', scope: 'a', second: S + 3, count: -1 }]);
    await store.rateLimits.addHits([{ keyId: 'k4', scope: 'a', second: S + 3, count: 2 }]);
    expect((await store.rateLimits.loadHits(S)).filter((r) => r.keyId === 'k4')).toEqual([
      { keyId: 'k4', scope: 'a', second: B0, count: 1 },
    ]);
  });

  it('loads counts stamped at or after a second, oldest first', async () => {
    const loaded = await store.rateLimits.loadHits(B0 + 1);
    expect(loaded.every((r) => r.second >= B0 + 1)).toBe(true);
    expect(loaded.map((r) => r.second)).toEqual([...loaded.map((r) => r.second)].sort((a, b) => a - b));
    expect(loaded.some((r) => r.second === B1 && r.keyId === 'k2')).toBe(true);
    expect(loaded.some((r) => r.second === B0)).toBe(false);
    expect(typeof loaded[0]?.second).toBe('number');
    expect(await store.rateLimits.loadHits(S + 10_000)).toEqual([]);
  });

  it('prunes counts stamped strictly before a second', async () => {
    await store.rateLimits.pruneHits(B0 + 1);
    const all = await store.rateLimits.loadHits(0);
    expect(all.some((r) => r.second < B0 + 1)).toBe(false);
    expect(all.some((r) => r.keyId === 'k2' && r.second === B1)).toBe(true);
    await store.rateLimits.pruneHits(S + 10_000);
    expect(await store.rateLimits.loadHits(0)).toEqual([]);
  });

  it('writes large batches in one call (chunked under the parameter limit)', async () => {
    const many: RateLimitHitCount[] = Array.from({ length: 20_000 }, (_, i) => ({
      keyId: `bulk-${i % 5000}`,
      scope: i % 2 ? 'a' : 'b',
      second: S + 600 + Math.floor(i / 5000) * 60,
      count: 1,
    }));
    await store.rateLimits.addHits(many);
    await store.rateLimits.addHits(many);
    const loaded = await store.rateLimits.loadHits(S + 600);
    // 5,000 keys (each always in one scope) × 4 minutes.
    expect(loaded).toHaveLength(20_000);
    expect(loaded.every((r) => r.count === 2)).toBe(true);
  });

  it('keeps hits flushed while another transaction is open, even when that one rolls back', async () => {
    let flushed: Promise<void> | undefined;
    await expect(
      store.kysely.transaction().execute(async (trx) => {
        await trx
          .updateTable('data_state')
          .set({ data_updated_at: 'rolled back' })
          .where('id', '=', 1)
          .execute();
        flushed = store.rateLimits.addHits([{ keyId: 'during-trx', scope: 'a', second: S, count: 4 }]);
        // Give the flush a chance to (wrongly) write inside this transaction before it fails.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await flushed;
    expect((await store.rateLimits.loadHits(S)).filter((r) => r.keyId === 'during-trx')).toEqual([
      { keyId: 'during-trx', scope: 'a', second: B0, count: 4 },
    ]);
    expect((await store.state.read()).dataUpdatedAt).not.toBe('rolled back');
  });

  it('does not touch the data or keys versions', async () => {
    const state = await store.state.read();
    await store.rateLimits.addHits([{ keyId: 'v', scope: 'a', second: S, count: 1 }]);
    await store.rateLimits.pruneHits(S);
    expect(await store.state.read()).toEqual(state);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRateLimiter } from '../../../src/adapters/ratelimit/memory-limiter.ts';
import { MemoryRateLimitStateStore } from '../../../src/adapters/ratelimit/memory-state-store.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitHitCount, RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';

const ROLLING: RateLimitPolicy = { kind: 'rolling', limit: 1000, windowMs: DAY_MS };
const HOURLY: RateLimitPolicy = { kind: 'fixed', limit: 10_000, windowMs: HOUR_MS };
const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);

/** A store whose addHits fails while `failing` is set. */
class FlakyStore extends MemoryRateLimitStateStore {
  failing = false;
  override async addHits(counts: RateLimitHitCount[]): Promise<void> {
    if (this.failing) throw new Error('database is down');
    await super.addHits(counts);
  }
}

describe('MemoryRateLimiter persistence', () => {
  let clock: ManualClock;
  let store: FlakyStore;
  const open: MemoryRateLimiter[] = [];
  const start = async (): Promise<MemoryRateLimiter> => {
    const limiter = await MemoryRateLimiter.open({ clock, stateStore: store, flushIntervalMs: 60_000 });
    open.push(limiter);
    return limiter;
  };

  beforeEach(() => {
    clock = new ManualClock(T0);
    store = new FlakyStore();
  });
  afterEach(async () => {
    store.failing = false;
    for (const limiter of open.splice(0)) await limiter.close();
  });

  const total = async () => (await store.loadHits(0)).reduce((sum, r) => sum + r.count, 0);

  it('restores a rolling window after a restart, never over-admitting', async () => {
    const before = await start();
    // Sub-second spacing: restored hits move to the end of their second, which must only make it stricter.
    for (let i = 0; i < 1000; i++) {
      await before.consume('k', 'b', ROLLING);
      clock.advance(37);
    }
    const deniedBefore = await before.consume('k', 'b', ROLLING);
    await before.close();

    const after = await start();
    const denied = await after.consume('k', 'b', ROLLING);
    expect(denied.allowed).toBe(false);
    expect(denied.retryAfterMs).toBeGreaterThanOrEqual(deniedBefore.retryAfterMs);
    expect(denied.retryAfterMs).toBeLessThan(deniedBefore.retryAfterMs + 1000);

    clock.set(T0 + DAY_MS - 1);
    expect((await after.consume('k', 'b', ROLLING)).allowed).toBe(false);
    // Walk past the original window in small steps: at no moment may the restarted limiter admit more
    // than the hits that had left the window by then.
    let admitted = 0;
    for (let t = T0 + DAY_MS; t <= T0 + DAY_MS + 40_000; t += 50) {
      clock.set(t);
      while ((await after.consume('k', 'b', ROLLING)).allowed) admitted++;
      const left = Math.floor((t - DAY_MS - T0) / 37) + 1;
      expect(admitted).toBeLessThanOrEqual(Math.max(0, Math.min(1000, left)));
    }
    expect(admitted).toBe(1000);
  });

  it('never extends a window past a restart, even from a store that keeps minutes', async () => {
    // Stamps every second with its minute's last one, as the SQL store does (rate-limit-store.ts).
    const minutes = new (class extends FlakyStore {
      override addHits(counts: RateLimitHitCount[]): Promise<void> {
        return super.addHits(counts.map((c) => ({ ...c, second: Math.floor(c.second / 60) * 60 + 59 })));
      }
    })();
    store = minutes;
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 5, windowMs: DAY_MS };
    clock.set(Date.UTC(2025, 0, 15, 10, 15, 5, 0)); // 55 s before the minute's end
    const before = await start();
    for (let i = 0; i < 5; i++) expect((await before.consume('k', 'b', policy)).allowed).toBe(true);
    await before.close();
    clock.advance(2000);
    const after = await start();
    const denied = await after.consume('k', 'b', policy);
    // Exact: 86,398 s. Restored at the restart, not at 10:15:59.999: 86,400 s, never 86,453.
    expect(denied).toMatchObject({ allowed: false, retryAfterMs: DAY_MS });
    expect(denied.resetAtMs).toBe(clock.now() + DAY_MS);
    // The quota comes back no later than the restart time plus the window, and not before the exact time.
    clock.set(Date.UTC(2025, 0, 16, 10, 15, 5, 0));
    expect((await after.consume('k', 'b', policy)).allowed).toBe(false);
    clock.set(Date.UTC(2025, 0, 16, 10, 15, 7, 1));
    expect((await after.consume('k', 'b', policy)).remaining).toBe(4);

    // Fixed windows: minutes nest in hours, so a restored hit stays in its hour; Retry-After is the
    // time to the end of that hour.
    const hourly: RateLimitPolicy = { kind: 'fixed', limit: 3, windowMs: HOUR_MS };
    clock.set(Date.UTC(2025, 0, 16, 11, 59, 30, 0));
    for (let i = 0; i < 3; i++) await after.consume('h', 'a', hourly);
    await after.close();
    clock.advance(1000);
    const third = await start();
    expect(await third.consume('h', 'a', hourly)).toMatchObject({ allowed: false, retryAfterMs: 29_000 });
    clock.set(Date.UTC(2025, 0, 16, 12));
    expect(await third.consume('h', 'a', hourly)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('restores a fixed window after a restart', async () => {
    const before = await start();
    for (let i = 0; i < 10_000; i++) await before.consume('k', 'a', HOURLY);
    await before.close();
    const after = await start();
    expect(await after.consume('k', 'a', HOURLY)).toMatchObject({ allowed: false, remaining: 0 });
    clock.set(Date.UTC(2025, 0, 15, 11));
    expect(await after.consume('k', 'a', HOURLY)).toMatchObject({ allowed: true, remaining: 9_999 });
  });

  it('aggregates per second and records refunds', async () => {
    const limiter = await start();
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 10, windowMs: DAY_MS };
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push((await limiter.consume('k', 'b', policy)).hit!);
    await limiter.refund(hits[0]!, policy); // cancels a pending +1
    await limiter.flush();
    expect(await store.loadHits(0)).toEqual([
      { keyId: 'k', scope: 'b', second: Math.floor(T0 / 1000), count: 2 },
    ]);
    await limiter.refund(hits[1]!, policy); // already written: records -1
    await limiter.refund(hits[1]!, policy);
    await limiter.flush();
    expect(await total()).toBe(1);
  });

  it('keeps hits pending while addHits fails and writes them on a later flush', async () => {
    const limiter = await start();
    await limiter.consume('k', 'b', ROLLING);
    store.failing = true;
    await expect(limiter.flush()).rejects.toThrow('database is down');
    await limiter.consume('k', 'b', ROLLING);
    clock.advance(1000);
    await limiter.consume('k', 'b', ROLLING);
    await expect(limiter.flush()).rejects.toThrow();
    store.failing = false;
    await limiter.flush();
    expect(await total()).toBe(3);
    expect(store.size).toBe(2);
  });

  it('flushes on a timer and reports background failures to onError', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const errors: unknown[] = [];
      const limiter = await MemoryRateLimiter.open({
        clock,
        stateStore: store,
        onError: (err) => errors.push(err),
      });
      open.push(limiter);
      await limiter.consume('k', 'b', ROLLING);
      store.failing = true;
      await vi.advanceTimersByTimeAsync(1000);
      expect(errors).toHaveLength(1);
      store.failing = false;
      await vi.advanceTimersByTimeAsync(1000);
      expect(await total()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('prunes rows older than the longest window', async () => {
    const limiter = await start();
    await limiter.consume('k', 'b', ROLLING);
    await limiter.flush();
    clock.advance(DAY_MS + 2000);
    await limiter.consume('k2', 'b', ROLLING);
    await limiter.flush();
    expect((await store.loadHits(0)).map((r) => r.keyId)).toEqual(['k2']);
  });

  it('refuses to load after it has counted hits', async () => {
    const limiter = new MemoryRateLimiter({ clock, stateStore: store });
    open.push(limiter);
    await limiter.consume('k', 'b', ROLLING);
    await expect(limiter.load()).rejects.toThrow(/before use/);
  });
});

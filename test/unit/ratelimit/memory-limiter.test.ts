import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../../src/adapters/ratelimit/memory-limiter.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';

// DESIGN.md §4: B is an exact rolling 24 h window of 1,000; A fixed UTC hours of 10,000.
const ROLLING: RateLimitPolicy = { kind: 'rolling', limit: 1000, windowMs: DAY_MS };
const HOURLY: RateLimitPolicy = { kind: 'fixed', limit: 10_000, windowMs: HOUR_MS };
const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);

describe('MemoryRateLimiter', () => {
  let clock: ManualClock;
  let limiter: MemoryRateLimiter;

  beforeEach(() => {
    clock = new ManualClock(T0);
    limiter = new MemoryRateLimiter({ clock });
  });
  afterEach(async () => {
    await limiter.close();
  });

  describe('rolling window', () => {
    it('admits exactly the limit in 24 h and names when the oldest hit leaves', async () => {
      for (let i = 0; i < 1000; i++) {
        const d = await limiter.consume('k1', 'b', ROLLING);
        expect(d.allowed).toBe(true);
        expect(d.remaining).toBe(999 - i);
        expect(d.resetAtMs).toBe(T0 + DAY_MS);
        clock.advance(60_000); // 1000 minutes < 24 h
      }
      const denied = await limiter.consume('k1', 'b', ROLLING);
      expect(denied).toEqual({
        allowed: false,
        limit: 1000,
        remaining: 0,
        resetAtMs: T0 + DAY_MS,
        retryAfterMs: T0 + DAY_MS - clock.now(),
      });

      // The oldest hit (at T0) leaves at exactly T0 + 24 h: one more is admitted, then denied again.
      clock.set(T0 + DAY_MS);
      const again = await limiter.consume('k1', 'b', ROLLING);
      expect(again.allowed).toBe(true);
      expect(again.remaining).toBe(0);
      const next = await limiter.consume('k1', 'b', ROLLING);
      expect(next.allowed).toBe(false);
      expect(next.retryAfterMs).toBe(T0 + 60_000 + DAY_MS - clock.now());
    });

    it('counts a hit for exactly windowMs: still in at t + windowMs - 1, gone at t + windowMs', async () => {
      const policy: RateLimitPolicy = { kind: 'rolling', limit: 1, windowMs: 1000 };
      expect((await limiter.consume('k', 'b', policy)).allowed).toBe(true);
      clock.advance(999);
      const d = await limiter.consume('k', 'b', policy);
      expect(d).toMatchObject({ allowed: false, retryAfterMs: 1, resetAtMs: T0 + 1000 });
      clock.advance(1);
      expect((await limiter.consume('k', 'b', policy)).allowed).toBe(true);
    });

    it('reports the reset as the oldest counted hit plus the window', async () => {
      await limiter.consume('k', 'b', ROLLING);
      clock.advance(5000);
      const d = await limiter.consume('k', 'b', ROLLING);
      expect(d.resetAtMs).toBe(T0 + DAY_MS);
      expect(d.hit).toEqual({ keyId: 'k', scope: 'b', atMs: T0 + 5000, seq: expect.any(Number) });
    });
  });

  describe('fixed window', () => {
    it('aligns windows to the UTC hour and resets at the next boundary', async () => {
      const nextHour = Date.UTC(2025, 0, 15, 11);
      for (let i = 0; i < 10_000; i++) {
        const d = await limiter.consume('k1', 'a', HOURLY);
        expect(d.allowed).toBe(true);
        expect(d.remaining).toBe(9_999 - i);
        expect(d.resetAtMs).toBe(nextHour);
      }
      const denied = await limiter.consume('k1', 'a', HOURLY);
      expect(denied).toEqual({
        allowed: false,
        limit: 10_000,
        remaining: 0,
        resetAtMs: nextHour,
        retryAfterMs: nextHour - T0,
      });
      clock.set(nextHour - 1);
      expect((await limiter.consume('k1', 'a', HOURLY)).allowed).toBe(false);
      clock.set(nextHour);
      const fresh = await limiter.consume('k1', 'a', HOURLY);
      expect(fresh).toMatchObject({ allowed: true, remaining: 9_999, resetAtMs: nextHour + HOUR_MS });
    });
  });

  it('keeps scopes and keys independent', async () => {
    const one: RateLimitPolicy = { kind: 'rolling', limit: 1, windowMs: DAY_MS };
    const oneFixed: RateLimitPolicy = { kind: 'fixed', limit: 1, windowMs: HOUR_MS };
    expect((await limiter.consume('k1', 'b', one)).allowed).toBe(true);
    expect((await limiter.consume('k1', 'b', one)).allowed).toBe(false);
    expect((await limiter.consume('k2', 'b', one)).allowed).toBe(true);
    expect((await limiter.consume('k1', 'a', oneFixed)).allowed).toBe(true);
    expect((await limiter.consume('k1', 'a', oneFixed)).allowed).toBe(false);
    expect((await limiter.consume('k2', 'a', oneFixed)).allowed).toBe(true);
  });

  describe('refund', () => {
    it.each([
      { kind: 'rolling', limit: 2, windowMs: DAY_MS },
      { kind: 'fixed', limit: 2, windowMs: HOUR_MS },
    ] satisfies RateLimitPolicy[])('makes room once and is idempotent ($kind)', async (policy) => {
      const first = await limiter.consume('k', 'b', policy);
      await limiter.consume('k', 'b', policy);
      expect((await limiter.consume('k', 'b', policy)).allowed).toBe(false);
      await limiter.refund(first.hit!, policy);
      await limiter.refund(first.hit!, policy);
      expect((await limiter.peek('k', 'b', policy)).remaining).toBe(1);
      expect((await limiter.consume('k', 'b', policy)).allowed).toBe(true);
      await limiter.refund(first.hit!, policy);
      expect((await limiter.consume('k', 'b', policy)).allowed).toBe(false);
    });

    it('refunds two hits of the same millisecond one each (rolling)', async () => {
      const policy: RateLimitPolicy = { kind: 'rolling', limit: 3, windowMs: DAY_MS };
      const a = await limiter.consume('k', 'b', policy);
      const b = await limiter.consume('k', 'b', policy);
      expect(a.hit!.atMs).toBe(b.hit!.atMs);
      await limiter.refund(a.hit!, policy);
      await limiter.refund(b.hit!, policy);
      await limiter.refund(a.hit!, policy);
      expect((await limiter.peek('k', 'b', policy)).remaining).toBe(3);
    });

    it('ignores a rolling-window hit that has left the window', async () => {
      const policy: RateLimitPolicy = { kind: 'rolling', limit: 1, windowMs: HOUR_MS };
      const old = await limiter.consume('k', 'b', policy);
      clock.advance(HOUR_MS);
      await limiter.consume('k', 'b', policy);
      await limiter.refund(old.hit!, policy);
      expect((await limiter.consume('k', 'b', policy)).allowed).toBe(false);
    });

    it('ignores a fixed-window hit from a window that is over', async () => {
      const policy: RateLimitPolicy = { kind: 'fixed', limit: 1, windowMs: HOUR_MS };
      const old = await limiter.consume('k', 'a', policy);
      clock.advance(HOUR_MS);
      await limiter.consume('k', 'a', policy);
      await limiter.refund(old.hit!, policy);
      expect((await limiter.consume('k', 'a', policy)).allowed).toBe(false);
    });
  });

  it.each([ROLLING, HOURLY])('peek does not count ($kind)', async (policy) => {
    for (let i = 0; i < 5; i++) {
      expect(await limiter.peek('k', 'b', policy)).toMatchObject({ allowed: true, remaining: policy.limit });
    }
    const hit = await limiter.consume('k', 'b', policy);
    const seen = await limiter.peek('k', 'b', policy);
    expect(seen).toEqual({ ...hit, remaining: policy.limit - 1, hit: undefined });
  });

  it('peek at the limit reports the denial without counting', async () => {
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 2, windowMs: 10_000 };
    await limiter.consume('k', 'b', policy);
    clock.advance(1000);
    await limiter.consume('k', 'b', policy);
    clock.advance(1000);
    const d = await limiter.peek('k', 'b', policy);
    expect(d).toEqual({ allowed: false, limit: 2, remaining: 0, resetAtMs: T0 + 10_000, retryAfterMs: 8000 });
  });

  it.each([ROLLING, HOURLY])(
    'concurrent consumes at the edge admit exactly the limit ($kind)',
    async (policy) => {
      for (let i = 0; i < policy.limit - 3; i++) await limiter.consume('k', 'b', policy);
      const all = await Promise.all(Array.from({ length: 50 }, () => limiter.consume('k', 'b', policy)));
      expect(all.filter((d) => d.allowed)).toHaveLength(3);
      expect(new Set(all.filter((d) => d.allowed).map((d) => d.hit!.seq)).size).toBe(3);
    },
  );

  it('rejects windows longer than maxWindowMs instead of silently forgetting hits', async () => {
    await expect(
      limiter.consume('k', 'b', { kind: 'rolling', limit: 1, windowMs: 2 * DAY_MS }),
    ).rejects.toThrow(RangeError);
  });
});

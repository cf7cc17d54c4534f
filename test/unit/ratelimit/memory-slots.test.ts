import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../../src/adapters/ratelimit/memory-limiter.ts';
import { MemoryRateLimitStateStore } from '../../../src/adapters/ratelimit/memory-state-store.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { RateLimitPolicy } from '../../../src/core/ratelimit/model.ts';

const T0 = Date.UTC(2025, 0, 15, 10, 15, 30, 123);
const ROLLING: RateLimitPolicy = { kind: 'rolling', limit: 3, windowMs: DAY_MS };
const HOURLY: RateLimitPolicy = { kind: 'fixed', limit: 3, windowMs: HOUR_MS };

/** Slots: the fast path's way in (decision 0011), which must decide exactly as consume() does. */
describe('MemoryRateLimiter slots', () => {
  let clock: ManualClock;
  let store: MemoryRateLimitStateStore;
  let limiter: MemoryRateLimiter;

  beforeEach(() => {
    clock = new ManualClock(T0);
    store = new MemoryRateLimitStateStore();
    limiter = new MemoryRateLimiter({ clock, stateStore: store, pruneIntervalMs: 60_000 });
  });
  afterEach(async () => {
    await limiter.close();
  });

  it.each([ROLLING, HOURLY])('share one counter with consume() and deny alike ($kind)', async (policy) => {
    const slot = limiter.slotSync('k', 'b');
    expect(limiter.consumeSlotSync(slot, policy)).toMatchObject({ limit: 3, remaining: 2 });
    clock.advance(10);
    expect(await limiter.consume('k', 'b', policy)).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(10);
    const third = limiter.consumeSlotSync(slot, policy);
    const reset = policy.kind === 'rolling' ? T0 + DAY_MS : Date.UTC(2025, 0, 15, 11);
    expect(third).toMatchObject({ limit: 3, remaining: 0, resetAtMs: reset });
    // Denied: null, and nothing counted (a peek still sees exactly the limit used).
    expect(limiter.consumeSlotSync(slot, policy)).toBeNull();
    expect(await limiter.peek('k', 'b', policy)).toMatchObject({ allowed: false, remaining: 0 });
    expect((await limiter.consume('k', 'b', policy)).allowed).toBe(false);
  });

  it('counts slot hits for persistence like any other', async () => {
    const slot = limiter.slotSync('k', 'b');
    limiter.consumeSlotSync(slot, ROLLING);
    limiter.consumeSlotSync(slot, ROLLING);
    await limiter.flush();
    expect(await store.loadHits(0)).toEqual([
      { keyId: 'k', scope: 'b', second: Math.floor(T0 / 1000), count: 2 },
    ]);
  });

  it('keeps scopes apart', () => {
    const a = limiter.slotSync('k', 'a');
    const b = limiter.slotSync('k', 'b');
    expect(a).not.toBe(b);
    expect(limiter.slotSync('k', 'b')).toBe(b);
    limiter.consumeSlotSync(a, HOURLY);
    expect(limiter.consumeSlotSync(b, HOURLY)).toMatchObject({ remaining: 2 });
  });

  it('a slot dropped while its key was idle still counts, in the live counter', async () => {
    const policy: RateLimitPolicy = { kind: 'rolling', limit: 3, windowMs: HOUR_MS };
    const slot = limiter.slotSync('k', 'b');
    limiter.consumeSlotSync(slot, policy);
    await limiter.flush();
    // The hit leaves the 24 h horizon the limiter keeps, and a sweep drops the idle key.
    clock.advance(DAY_MS + 1);
    await limiter.flush();
    expect(slot.detached).toBe(true);
    expect(limiter.consumeSlotSync(slot, policy)).toMatchObject({ remaining: 2 });
    const fresh = limiter.slotSync('k', 'b');
    expect(fresh).not.toBe(slot);
    expect(fresh.detached).toBe(false);
    // Both went to the same live counter: two of three used.
    expect(limiter.consumeSlotSync(fresh, policy)).toMatchObject({ remaining: 1 });
    expect(await limiter.peek('k', 'b', policy)).toMatchObject({ remaining: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { HitRing } from '../../../src/adapters/ratelimit/hit-ring.ts';

const times = (ring: HitRing): number[] => Array.from({ length: ring.size }, (_, i) => ring.timeAt(i));
/** A realistic Unix-ms time, so offsets from the base are exercised rather than raw values. */
const T0 = Date.UTC(2026, 10, 22, 12);

describe('HitRing', () => {
  it('grows across the wrap-around and keeps order', () => {
    const ring = new HitRing(2);
    for (let t = 1; t <= 3; t++) ring.push(T0 + t);
    ring.evictUpTo(T0 + 2); // head now mid-buffer, so the next pushes wrap
    for (let t = 4; t <= 10; t++) ring.push(T0 + t);
    expect(times(ring)).toEqual([3, 4, 5, 6, 7, 8, 9, 10].map((t) => T0 + t));
  });

  it('evicts exactly the hits at or before the cutoff', () => {
    const ring = new HitRing();
    for (const t of [10, 20, 20, 30]) ring.push(T0 + t);
    ring.evictUpTo(T0 + 9);
    expect(ring.size).toBe(4);
    ring.evictUpTo(T0 + 20);
    expect(times(ring)).toEqual([T0 + 30]);
    ring.evictUpTo(T0 + 30);
    expect(ring.size).toBe(0);
    ring.push(T0 + 40);
    expect(times(ring)).toEqual([T0 + 40]);
  });

  it('insertion-sorts a hit older than the tail, also before the oldest', () => {
    const ring = new HitRing();
    for (const t of [10, 20, 30]) ring.push(T0 + t);
    ring.push(T0 + 15);
    ring.push(T0 + 5);
    expect(times(ring)).toEqual([5, 10, 15, 20, 30].map((t) => T0 + t));
  });

  it('moves its base when the clock steps back before it', () => {
    const ring = new HitRing();
    ring.push(T0);
    ring.push(T0 + 1000);
    ring.push(T0 - 60_000); // earlier than the base: offsets are re-anchored
    expect(times(ring)).toEqual([T0 - 60_000, T0, T0 + 1000]);
    ring.evictUpTo(T0 - 1);
    expect(times(ring)).toEqual([T0, T0 + 1000]);
  });

  it('moves its base when a key has held hits for longer than 32 bits of milliseconds', () => {
    const ring = new HitRing();
    const day = 86_400_000;
    ring.push(T0); // the base
    ring.push(T0 + 40 * day);
    ring.evictUpTo(T0);
    ring.push(T0 + 50 * day); // 50 days after the base: more than 2^32 ms
    expect(times(ring)).toEqual([T0 + 40 * day, T0 + 50 * day]);
  });

  it('removes one hit at a time, by its time', () => {
    const ring = new HitRing();
    for (const t of [1, 2, 3, 3, 4]) ring.push(T0 + t);
    expect(ring.removeAt(T0 + 3)).toBe(true);
    expect(times(ring)).toEqual([1, 2, 3, 4].map((t) => T0 + t));
    expect(ring.removeAt(T0 + 3)).toBe(true);
    expect(ring.removeAt(T0 + 3)).toBe(false);
    expect(ring.removeAt(T0 + 1)).toBe(true); // the oldest: timeAt(0) follows
    expect(times(ring)).toEqual([T0 + 2, T0 + 4]);
  });

  it('keeps only the newest n', () => {
    const ring = new HitRing();
    for (let t = 1; t <= 5; t++) ring.push(T0 + t);
    ring.keepNewest(2);
    expect(times(ring)).toEqual([T0 + 4, T0 + 5]);
  });
});

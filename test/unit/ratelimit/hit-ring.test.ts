import { describe, expect, it } from 'vitest';
import { HitRing } from '../../../src/adapters/ratelimit/hit-ring.ts';

const times = (ring: HitRing): number[] => Array.from({ length: ring.size }, (_, i) => ring.timeAt(i));

describe('HitRing', () => {
  it('grows across the wrap-around and keeps order', () => {
    const ring = new HitRing(2);
    for (let t = 1; t <= 3; t++) ring.push(t, t);
    ring.evictUpTo(2); // head now mid-buffer, so the next pushes wrap
    for (let t = 4; t <= 10; t++) ring.push(t, t);
    expect(times(ring)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('insertion-sorts a hit older than the tail', () => {
    const ring = new HitRing();
    for (const t of [10, 20, 30]) ring.push(t, t);
    ring.push(15, 99);
    expect(times(ring)).toEqual([10, 15, 20, 30]);
  });

  it('removes one hit by seq and time, once', () => {
    const ring = new HitRing();
    for (let t = 1; t <= 5; t++) ring.push(t, t);
    expect(ring.remove(3, 3)).toBe(true);
    expect(ring.remove(3, 3)).toBe(false);
    expect(ring.remove(4, 999)).toBe(false);
    expect(times(ring)).toEqual([1, 2, 4, 5]);
  });

  it('keeps only the newest n', () => {
    const ring = new HitRing();
    for (let t = 1; t <= 5; t++) ring.push(t, 0);
    ring.keepNewest(2);
    expect(times(ring)).toEqual([4, 5]);
  });
});

import { describe, expect, it } from 'vitest';
import { AddressThrottle, MAX_ADDRESS } from '../../../src/core/users/address-throttle.ts';

const MIN = 60_000;

describe('AddressThrottle', () => {
  it('refuses an address after maxFailures within the window, until the window ends', () => {
    const t = new AddressThrottle({ maxFailures: 3, windowMs: 15 * MIN });
    const now = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfterMs('192.0.2.1', now)).toBe(0);
      t.fail('192.0.2.1', now + i * MIN);
    }
    expect(t.retryAfterMs('192.0.2.1', now + 3 * MIN)).toBe(12 * MIN);
    expect(t.retryAfterMs('192.0.2.2', now + 3 * MIN)).toBe(0);
    expect(t.retryAfterMs('192.0.2.1', now + 15 * MIN)).toBe(0);
    // A new window starts with the next failure.
    t.fail('192.0.2.1', now + 16 * MIN);
    expect(t.retryAfterMs('192.0.2.1', now + 16 * MIN)).toBe(0);
  });

  it('stays bounded in entries: expired ones go first, then the oldest', () => {
    const t = new AddressThrottle({ maxEntries: 100, maxFailures: 2, windowMs: 10 * MIN });
    for (let i = 0; i < 100; i++) t.fail(`10.0.0.${i}`, 0);
    expect(t.size).toBe(100);
    // The window of the first 100 has passed: they make room at once.
    for (let i = 0; i < 50; i++) t.fail(`10.1.0.${i}`, 11 * MIN);
    expect(t.size).toBe(50);
    // A flood of new addresses never grows the map past its cap.
    for (let i = 0; i < 10_000; i++) t.fail(`2001:db8::${i.toString(16)}`, 12 * MIN);
    expect(t.size).toBe(100);
    // A throttled address among the newest is still throttled.
    t.fail('203.0.113.9', 12 * MIN);
    t.fail('203.0.113.9', 12 * MIN);
    expect(t.retryAfterMs('203.0.113.9', 12 * MIN)).toBe(10 * MIN);
    expect(t.size).toBe(100);
  });

  it('stays bounded in bytes: an address is cut to MAX_ADDRESS characters', () => {
    const t = new AddressThrottle({ maxFailures: 2 });
    const long = 'x'.repeat(10_000);
    t.fail(long, 0);
    t.fail(`${'x'.repeat(MAX_ADDRESS)}-different-tail`, 0);
    // Both are the same cut key, so that key has two failures.
    expect(t.retryAfterMs(long, 0)).toBeGreaterThan(0);
    expect(t.size).toBe(1);
  });

  it('uses 20 failures per 15 minutes and 10,000 addresses by default', () => {
    const t = new AddressThrottle();
    for (let i = 0; i < 19; i++) t.fail('a', 0);
    expect(t.retryAfterMs('a', 0)).toBe(0);
    t.fail('a', 0);
    expect(t.retryAfterMs('a', 0)).toBe(15 * MIN);
    for (let i = 0; i < 12_000; i++) t.fail(`n${i}`, 1);
    expect(t.size).toBe(10_000);
  });
});

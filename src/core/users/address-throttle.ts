/**
 * Failed sign-ins per client address, in memory (per instance): a fixed window that starts with an
 * address's first failure. Anyone can make entries (one failed sign-in each), so the map is bounded
 * in entries and, since each key is cut to MAX_ADDRESS characters, in bytes too (about 10,000 ×
 * (64 characters + an entry) < 2 MB). When full, expired entries go first, then the oldest.
 */
export interface AddressThrottleOptions {
  /** Failures of one address within the window before it is refused. (Default: 20) */
  maxFailures: number;
  /** (Default: 15 minutes) */
  windowMs: number;
  /** Addresses remembered at once. (Default: 10,000) */
  maxEntries: number;
}

export const ADDRESS_THROTTLE: AddressThrottleOptions = {
  maxFailures: 20,
  windowMs: 15 * 60_000,
  maxEntries: 10_000,
};

/** IPv6 text is at most 45 characters; anything longer is cut, so a key is never large. */
export const MAX_ADDRESS = 64;

interface Entry {
  failures: number;
  /** When the window ends (epoch ms). */
  until: number;
}

export class AddressThrottle {
  private readonly entries = new Map<string, Entry>();
  private readonly opts: AddressThrottleOptions;

  constructor(opts: Partial<AddressThrottleOptions> = {}) {
    this.opts = { ...ADDRESS_THROTTLE, ...opts };
  }

  /** Milliseconds until the address may try again, or 0 when it may now. */
  retryAfterMs(address: string, now: number): number {
    const e = this.entries.get(key(address));
    if (!e) return 0;
    if (e.until <= now) {
      this.entries.delete(key(address));
      return 0;
    }
    return e.failures >= this.opts.maxFailures ? e.until - now : 0;
  }

  fail(address: string, now: number): void {
    const k = key(address);
    const e = this.entries.get(k);
    if (e && e.until > now) {
      e.failures++;
      return;
    }
    if (e) this.entries.delete(k);
    if (this.entries.size >= this.opts.maxEntries) this.makeRoom(now);
    this.entries.set(k, { failures: 1, until: now + this.opts.windowMs });
  }

  /**
   * Takes back one failure charged by `fail` (a sign-in charges its attempt before the password is
   * checked, so a burst of concurrent attempts cannot all pass the check; a success gives it back).
   */
  forgive(address: string, now: number): void {
    const k = key(address);
    const e = this.entries.get(k);
    if (!e || e.until <= now) return;
    // An address whose every attempt succeeded is not remembered at all.
    if (--e.failures <= 0) this.entries.delete(k);
  }

  /** Addresses remembered now (tests: the map stays bounded). */
  get size(): number {
    return this.entries.size;
  }

  private makeRoom(now: number): void {
    // Insertion order is window order (a new window re-inserts), so expired entries are at the front.
    for (const [k, e] of this.entries) {
      if (e.until > now) break;
      this.entries.delete(k);
    }
    while (this.entries.size >= this.opts.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

const key = (address: string): string =>
  address.length > MAX_ADDRESS ? address.slice(0, MAX_ADDRESS) : address;

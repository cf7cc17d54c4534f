import type { CachedBody } from './conditional.ts';

/** A cached body with what the fast path writes next to it. */
export interface CachedResponse extends CachedBody {
  /** `content-length` as header text, computed once per body rather than per request. */
  lengthText: string;
}

interface Entry extends CachedResponse {
  version: number;
  /** Unix ms after which the body may be wrong (time-dependent fields such as ageDays, stale). */
  validUntil: number;
}

/**
 * Serialized bodies per (variant, route, parameters), valid for one data version and, for bodies
 * that depend on the clock, until the next moment one of their fields would change. Serializing
 * per request costs ~3× the throughput of sending bytes (DESIGN.md §3); this is the fix.
 * Bounded: when full it is cleared, which is cheap and only costs a re-serialization.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 20_000) {}

  get(key: string, version: number, nowMs: number): CachedResponse | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.version !== version || nowMs >= e.validUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  set(key: string, version: number, body: CachedBody, validUntil = Number.POSITIVE_INFINITY): CachedBody {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, {
      body: body.body,
      etag: body.etag,
      lengthText: String(body.body.length),
      version,
      validUntil,
    });
    return body;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

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
 * Bounded in entries and in bytes (keys and bodies): when full it is cleared, which is cheap and
 * only costs a re-serialization. Only admitted requests fill it (the routes run past the guard).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 20_000,
    /** Default 64 MiB: the demo and scale datasets' whole read surface is a few MiB. */
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string, version: number, nowMs: number): CachedResponse | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.version !== version || nowMs >= e.validUntil) {
      this.entries.delete(key);
      this.bytes -= key.length + e.body.length;
      return undefined;
    }
    return e;
  }

  set(key: string, version: number, body: CachedBody, validUntil = Number.POSITIVE_INFINITY): CachedBody {
    const size = key.length + body.body.length;
    // A body larger than the whole budget is served, not kept.
    if (size > this.maxBytes) return body;
    const previous = this.entries.get(key);
    if (previous) this.bytes -= key.length + previous.body.length;
    if (this.entries.size >= this.maxEntries || this.bytes + size > this.maxBytes) this.clear();
    this.entries.set(key, {
      body: body.body,
      etag: body.etag,
      lengthText: String(body.body.length),
      version,
      validUntil,
    });
    this.bytes += size;
    return body;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (keys and bodies). */
  get byteSize(): number {
    return this.bytes;
  }
}

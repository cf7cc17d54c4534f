import type { RateLimitHitCount, RateLimitScope, RateLimitStateStore } from '../../core/ratelimit/model.ts';

/**
 * The in-memory twin of the SQL state store: same upsert-add semantics, no durability. Used by tests
 * (a "restart" is a new limiter over the same store) and when no database is configured.
 */
export class MemoryRateLimitStateStore implements RateLimitStateStore {
  /** One row per (scope, key, second), like the SQL table's primary key. */
  private readonly rows = new Map<string, RateLimitHitCount>();

  async addHits(counts: RateLimitHitCount[]): Promise<void> {
    for (const c of counts) {
      const id = rowId(c.scope, c.keyId, c.second);
      const row = this.rows.get(id);
      if (row) row.count += c.count;
      else this.rows.set(id, { keyId: c.keyId, scope: c.scope, second: c.second, count: c.count });
    }
  }

  async loadHits(sinceSecond: number): Promise<RateLimitHitCount[]> {
    const out: RateLimitHitCount[] = [];
    for (const row of this.rows.values()) if (row.second >= sinceSecond) out.push({ ...row });
    return out.sort((x, y) => x.second - y.second);
  }

  async pruneHits(beforeSecond: number): Promise<void> {
    for (const [id, row] of this.rows) if (row.second < beforeSecond) this.rows.delete(id);
  }

  /** Number of stored rows (for tests and diagnostics). */
  get size(): number {
    return this.rows.size;
  }
}

// NUL cannot occur in a key id or scope, so the composite id is unambiguous.
const rowId = (scope: RateLimitScope, keyId: string, second: number): string =>
  `${scope}\u0000${keyId}\u0000${second}`;

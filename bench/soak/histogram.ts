/**
 * A latency histogram of fixed size: logarithmic buckets 2 % wide from 0.05 ms to about 10 min, so a
 * soak of any length keeps the same few kilobytes per request kind (no array of every sample).
 * A quantile is read as its bucket's upper bound: at most 2 % above the true value.
 */
const MIN_MS = 0.05;
const GROWTH = 1.02;
const BUCKETS = Math.ceil(Math.log(600_000 / MIN_MS) / Math.log(GROWTH)) + 1;
const LOG_GROWTH = Math.log(GROWTH);

export class Histogram {
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  maxMs = 0;

  record(ms: number): void {
    const i = ms <= MIN_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / MIN_MS) / LOG_GROWTH));
    this.counts[i]!++;
    this.count++;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  /** Adds another histogram's samples to this one. */
  merge(other: Histogram): void {
    for (let i = 0; i < BUCKETS; i++) this.counts[i]! += other.counts[i]!;
    this.count += other.count;
    this.maxMs = Math.max(this.maxMs, other.maxMs);
  }

  /** The q-quantile (0 < q ≤ 1), ms; NaN when empty. */
  quantile(q: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min(this.maxMs, MIN_MS * GROWTH ** i);
    }
    return this.maxMs;
  }

  reset(): void {
    this.counts.fill(0);
    this.count = 0;
    this.maxMs = 0;
  }
}

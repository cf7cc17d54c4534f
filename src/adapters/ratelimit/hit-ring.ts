/**
 * The hits counted for one key in a rolling window: timestamps (ms) kept in ascending order, each with
 * the seq that identifies it for a refund.
 *
 * A growable ring buffer over two typed arrays rather than an array of objects: eviction from the front
 * is O(1), a push allocates nothing until the capacity doubles, and the memory is 12 bytes per hit with
 * no per-hit garbage. The limiter never pushes once the window holds `limit` hits, so the ring stays
 * at most `limit` long.
 */
export class HitRing {
  private times: Float64Array;
  /** Seqs modulo 2^32: refunds match on (time, seq), so a wrapped seq cannot be mistaken. */
  private seqs: Uint32Array;
  /** capacity - 1; the capacity is a power of two so a modulo is a cheap mask. */
  private mask: number;
  private head = 0;
  private length = 0;

  constructor(initialCapacity = 4) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity *= 2;
    this.times = new Float64Array(capacity);
    this.seqs = new Uint32Array(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.length;
  }

  /** Timestamp of the i-th oldest hit (0 = oldest). The caller keeps i < size. */
  timeAt(i: number): number {
    return this.times[(this.head + i) & this.mask]!;
  }

  /** Drops every hit at or before `cutoffMs`: those have left the window (now - windowMs, now]. */
  evictUpTo(cutoffMs: number): void {
    while (this.length > 0 && this.times[this.head]! <= cutoffMs) {
      this.head = (this.head + 1) & this.mask;
      this.length--;
    }
  }

  /**
   * Adds a hit. Normally `atMs` is the newest so this is an append; a clock step backwards (or a restored
   * hit placed at the end of its second) can make it older than the tail, so it is insertion-sorted from
   * the tail to keep the front the oldest.
   */
  push(atMs: number, seq: number): void {
    if (this.length === this.mask + 1) this.grow();
    let i = this.length;
    while (i > 0) {
      const prev = (this.head + i - 1) & this.mask;
      if (this.times[prev]! <= atMs) break;
      const at = (this.head + i) & this.mask;
      this.times[at] = this.times[prev]!;
      this.seqs[at] = this.seqs[prev]!;
      i--;
    }
    const at = (this.head + i) & this.mask;
    this.times[at] = atMs;
    this.seqs[at] = seq >>> 0;
    this.length++;
  }

  /**
   * Removes the hit with this seq and time, if still present. Searches from the newest end because
   * refunds (a 304) follow their hit within one request. O(size), which is fine for a rare operation.
   */
  remove(seq: number, atMs: number): boolean {
    for (let i = this.length - 1; i >= 0; i--) {
      const at = (this.head + i) & this.mask;
      if (this.seqs[at] !== seq >>> 0 || this.times[at] !== atMs) continue;
      for (let j = i; j < this.length - 1; j++) {
        const to = (this.head + j) & this.mask;
        const from = (to + 1) & this.mask;
        this.times[to] = this.times[from]!;
        this.seqs[to] = this.seqs[from]!;
      }
      this.length--;
      return true;
    }
    return false;
  }

  /** Keeps only the newest `n` hits (older ones cannot change a decision once n >= limit). */
  keepNewest(n: number): void {
    if (this.length <= n) return;
    this.head = (this.head + this.length - n) & this.mask;
    this.length = n;
  }

  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    const times = new Float64Array(capacity);
    const seqs = new Uint32Array(capacity);
    for (let i = 0; i < this.length; i++) {
      const at = (this.head + i) & this.mask;
      times[i] = this.times[at]!;
      seqs[i] = this.seqs[at]!;
    }
    this.times = times;
    this.seqs = seqs;
    this.mask = capacity - 1;
    this.head = 0;
  }
}

/** Offsets are kept below this, so an offset never needs more than 32 bits. */
const MAX_OFFSET = 0xffff_ffff;
/** The first storage a ring gets. */
const MIN_CAPACITY = 4;
const EMPTY = new Uint32Array(0);

/**
 * The hits counted for one key in a rolling window: their timestamps (ms), oldest first.
 *
 * A growable ring buffer of 32-bit offsets from a per-ring base time, rather than an array of
 * objects or of doubles: eviction from the front is O(1), a push allocates nothing until the
 * capacity doubles, and a hit costs 4 bytes with no per-hit garbage. That matters at scale: an
 * enterprise key may hold 1,000 hits, and thousands of keys are active at once. The newest hit
 * time is also kept as a plain field, so the common decision (nothing to evict) reads no array
 * memory that other keys' requests have pushed out of the CPU cache.
 *
 * Hits carry no identity: two hits at the same millisecond are interchangeable, so a refund
 * removes "a hit at that time" and the limiter itself makes refunds idempotent.
 */
export class HitRing {
  private offsets: Uint32Array = EMPTY;
  /** capacity - 1; the capacity is a power of two so a modulo is a cheap mask (-1: no storage yet). */
  private mask = -1;
  private head = 0;
  private length = 0;
  /** Unix ms that offset 0 stands for. */
  private base = 0;
  /** Unix ms of the oldest hit (meaningful while size > 0). */
  private oldestMs = 0;

  /** Storage is allocated on the first push unless a capacity is given: many keys never need a ring. */
  constructor(initialCapacity = 0) {
    if (initialCapacity > 0) this.allocate(initialCapacity);
  }

  get size(): number {
    return this.length;
  }

  /** Timestamp of the i-th oldest hit (0 = oldest). The caller keeps i < size. */
  timeAt(i: number): number {
    return i === 0 ? this.oldestMs : this.base + this.offsets[(this.head + i) & this.mask]!;
  }

  /** Drops every hit at or before `cutoffMs`: those have left the window (now - windowMs, now]. */
  evictUpTo(cutoffMs: number): void {
    if (this.length === 0 || this.oldestMs > cutoffMs) return;
    const cutoff = cutoffMs - this.base;
    do {
      this.head = (this.head + 1) & this.mask;
      this.length--;
    } while (this.length > 0 && this.offsets[this.head]! <= cutoff);
    if (this.length > 0) this.oldestMs = this.base + this.offsets[this.head]!;
  }

  /**
   * Adds a hit. Normally `atMs` is the newest so this is an append; a clock step backwards (or a
   * restored hit placed at the end of its second) can make it older than the tail, so it is
   * insertion-sorted from the tail to keep the front the oldest.
   */
  push(atMs: number): void {
    if (this.length === 0) this.base = atMs;
    else if (atMs < this.base || atMs - this.base > MAX_OFFSET) this.rebase(atMs);
    if (this.length === this.mask + 1) this.grow();
    const offset = atMs - this.base;
    let i = this.length;
    while (i > 0) {
      const prev = (this.head + i - 1) & this.mask;
      if (this.offsets[prev]! <= offset) break;
      this.offsets[(this.head + i) & this.mask] = this.offsets[prev]!;
      i--;
    }
    this.offsets[(this.head + i) & this.mask] = offset;
    this.length++;
    if (i === 0) this.oldestMs = atMs;
  }

  /**
   * Removes one hit at exactly `atMs`, if any. Searches from the newest end because refunds (a 304)
   * follow their hit within one request. O(size), which is fine for a rare operation.
   */
  removeAt(atMs: number): boolean {
    const offset = atMs - this.base;
    for (let i = this.length - 1; i >= 0; i--) {
      if (this.offsets[(this.head + i) & this.mask] !== offset) continue;
      for (let j = i; j < this.length - 1; j++) {
        const to = (this.head + j) & this.mask;
        this.offsets[to] = this.offsets[(to + 1) & this.mask]!;
      }
      this.length--;
      if (this.length > 0) this.oldestMs = this.base + this.offsets[this.head]!;
      return true;
    }
    return false;
  }

  /** Keeps only the newest `n` hits (older ones cannot change a decision once n >= limit). */
  keepNewest(n: number): void {
    if (this.length <= n) return;
    this.head = (this.head + this.length - n) & this.mask;
    this.length = n;
    if (n > 0) this.oldestMs = this.base + this.offsets[this.head]!;
  }

  /**
   * Moves the base so that `atMs` and every stored hit fit in 32-bit offsets. The hits span at most
   * one window (≤ 24 h), far inside 2^32 ms (49 days), so this always succeeds; it runs when the
   * clock steps back past the base or after 49 days of a key never going idle.
   */
  private rebase(atMs: number): void {
    const base = Math.min(atMs, this.oldestMs);
    const shift = this.base - base;
    for (let i = 0; i < this.length; i++) {
      const at = (this.head + i) & this.mask;
      this.offsets[at] = this.offsets[at]! + shift;
    }
    this.base = base;
  }

  private grow(): void {
    this.allocate(Math.max(MIN_CAPACITY, (this.mask + 1) * 2));
  }

  /** Moves the hits to new storage of at least `minCapacity` (a power of two). */
  private allocate(minCapacity: number): void {
    let capacity = 1;
    while (capacity < minCapacity) capacity *= 2;
    const offsets = new Uint32Array(capacity);
    for (let i = 0; i < this.length; i++) offsets[i] = this.offsets[(this.head + i) & this.mask]!;
    this.offsets = offsets;
    this.mask = capacity - 1;
    this.head = 0;
  }
}

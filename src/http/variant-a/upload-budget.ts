/**
 * Upload bodies held in memory at once, in bytes. A request reserves what it may hold (its
 * Content-Length, or the largest allowed file when the length is not announced) before any of its
 * body is read, and releases it when answered; a request that would pass the budget is refused
 * (503) instead of queued, so a flood of uploads cannot grow memory without bound.
 */
export class UploadBudget {
  private used = 0;

  constructor(private readonly capacity: number) {}

  tryReserve(bytes: number): (() => void) | null {
    if (this.used + bytes > this.capacity) return null;
    this.used += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
    };
  }

  get inUse(): number {
    return this.used;
  }
}

/**
 * Upload bodies held in memory at once, in bytes. A request reserves what it may hold (its
 * Content-Length, or the largest allowed upload when the length is not announced) before any of
 * its body is read, and releases it when its connection closes; a request that would pass the
 * budget is refused (503) instead of queued, so a flood of uploads cannot grow memory without
 * bound. One account may hold at most a share of it (`perAccount`), so a few idle connections
 * announcing large bodies cannot shut every other account out.
 */
export class UploadBudget {
  private used = 0;
  private readonly byAccount = new Map<number, number>();

  constructor(
    private readonly capacity: number,
    private readonly perAccount: number,
  ) {}

  tryReserve(accountId: number, bytes: number): (() => void) | null {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (this.used + bytes > this.capacity || mine + bytes > this.perAccount) return null;
    this.used += bytes;
    this.byAccount.set(accountId, mine + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
      const left = (this.byAccount.get(accountId) ?? bytes) - bytes;
      if (left > 0) this.byAccount.set(accountId, left);
      else this.byAccount.delete(accountId);
    };
  }

  get inUse(): number {
    return this.used;
  }
}

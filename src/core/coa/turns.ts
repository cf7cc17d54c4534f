import { setImmediate } from 'node:timers';

/**
 * Resumes one waiter per turn of the event loop. An upload's work on the main thread is split into
 * pieces at these points (core/coa/verify-coa.ts); with several uploads in flight, a plain
 * `setImmediate` lets every waiting piece run back to back in the same check phase, and a request
 * that arrived meanwhile (a cached list, answered in microseconds) waited for all of them. Through
 * here, pieces of different uploads run one per turn, and the I/O that arrived between two of them
 * is served in between. First come, first resumed; nothing is held while a piece runs.
 */
export class Turns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) this.schedule();
    });
  }

  private schedule(): void {
    this.scheduled = true;
    // An immediate queued while the check phase runs waits for the next turn: the poll phase
    // (incoming requests) comes first.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}

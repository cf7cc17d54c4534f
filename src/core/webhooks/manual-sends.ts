import { DomainError } from '../errors.ts';

/**
 * Bounds on attempts made on request (`test`, `redeliver`). Each one holds an outbound connection
 * for up to the attempt's timeout inside an API request, outside the worker's concurrency limits: a
 * hostile tester opened 20,000 of them at once (the process ran out of file descriptors) and could
 * aim about 10,000 an hour at any public host. Per account: a few at a time and a rate per minute;
 * per process: a ceiling for all accounts. Counted in memory per instance (it is a guard, not a
 * quota); only authenticated Enterprise callers reach it, so its map holds at most one small entry
 * per such account, dropped when its minute is over and nothing is in flight.
 */
export interface ManualSendLimits {
  perAccountInFlight: number;
  perAccountPerMinute: number;
  totalInFlight: number;
}

export const MANUAL_SEND_LIMITS: ManualSendLimits = {
  perAccountInFlight: 4,
  perAccountPerMinute: 30,
  totalInFlight: 64,
};

const MINUTE_MS = 60_000;

interface AccountWindow {
  inFlight: number;
  windowStart: number;
  count: number;
}

export class ManualSendGate {
  private readonly accounts = new Map<number, AccountWindow>();
  private total = 0;

  constructor(
    private readonly nowMs: () => number,
    private readonly limits: ManualSendLimits = MANUAL_SEND_LIMITS,
  ) {}

  /** Runs `send` if the account and the process have room; otherwise 429 or 503 with Retry-After. */
  async run<T>(accountId: number, send: () => Promise<T>): Promise<T> {
    const now = this.nowMs();
    let w = this.accounts.get(accountId);
    if (!w || now - w.windowStart >= MINUTE_MS) {
      w = { inFlight: w?.inFlight ?? 0, windowStart: now, count: 0 };
      this.accounts.set(accountId, w);
    }
    if (w.count >= this.limits.perAccountPerMinute) {
      const retry = Math.max(1, Math.ceil((w.windowStart + MINUTE_MS - now) / 1000));
      throw new DomainError(
        'rate_limited',
        `At most ${this.limits.perAccountPerMinute} test or redeliver requests per minute per account: retry in ${retry} s.`,
        { retryAfterSeconds: retry },
      );
    }
    if (w.inFlight >= this.limits.perAccountInFlight) {
      throw new DomainError(
        'rate_limited',
        `At most ${this.limits.perAccountInFlight} test or redeliver requests at a time per account: wait for one to finish.`,
        { retryAfterSeconds: 1 },
      );
    }
    if (this.total >= this.limits.totalInFlight) {
      throw new DomainError(
        'service_unavailable',
        'Too many test and redeliver requests are in progress; retry shortly.',
        {
          retryAfterSeconds: 2,
        },
      );
    }
    w.count += 1;
    w.inFlight += 1;
    this.total += 1;
    try {
      return await send();
    } finally {
      w.inFlight -= 1;
      this.total -= 1;
      this.forgetIdle(this.nowMs());
    }
  }

  /** Entries whose minute is over and that have nothing in flight (the map stays small). */
  private forgetIdle(now: number): void {
    for (const [id, w] of this.accounts) {
      if (w.inFlight === 0 && now - w.windowStart >= MINUTE_MS) this.accounts.delete(id);
    }
  }

  /** For tests: accounts remembered now. */
  get size(): number {
    return this.accounts.size;
  }
}

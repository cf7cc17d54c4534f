import type { Clock } from '../core/clock.ts';
import { isoTime } from '../core/clock.ts';
import { type AttemptPolicy, attemptOnce } from '../core/webhooks/attempt.ts';
import {
  anyClaimable,
  type ClaimLimits,
  type DueRef,
  fullAccounts,
  fullEndpoints,
  type InFlight,
  nextTurnOrder,
  planClaims,
} from '../core/webhooks/claim-plan.ts';
import type { ClaimedMessage, DeliveryStore } from '../core/webhooks/delivery-ports.ts';
import { fanOutPlanner, WEBHOOK_PLANS } from '../core/webhooks/fan-out.ts';
import type { WebhookSender } from '../core/webhooks/model.ts';
import type { AttemptRecord } from '../core/webhooks/ports.ts';

/** What the worker says about itself; pino's (obj, msg) signature, so `app.log` fits as it is. */
export interface WorkerLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

export interface DeliveryWorkerOptions {
  /** How often it fans out new events and looks for due messages (WEBHOOK_POLL_MS). */
  pollMs: number;
  /** Attempts in flight in this worker, all endpoints (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight in this worker per endpoint (WEBHOOK_ENDPOINT_CONCURRENCY). */
  endpointConcurrency: number;
  /**
   * Attempts in flight in this worker per account, all its endpoints (WEBHOOK_ACCOUNT_CONCURRENCY):
   * an account's many endpoints at a receiver that hangs leave the others at least
   * `concurrency - accountConcurrency` slots.
   */
  accountConcurrency: number;
  /** How long a claim holds a message: an attempt's time limit plus a margin to record it. */
  leaseMs: number;
  /** Outbox events per fan-out transaction. */
  fanOutBatch?: number;
  /** Outcomes per write transaction. */
  recordBatch?: number;
  /** How long an outcome may wait for others to share its transaction. */
  recordDelayMs?: number;
  /** Settled messages older than this are deleted (30 days). */
  retentionMs?: number;
  /** How often the retention runs once it has caught up. */
  purgeEveryMs?: number;
  /** How long stop() waits for attempts in flight and their outcomes before abandoning them. */
  stopGraceMs?: number;
}

export interface DeliveryWorkerDeps {
  store: DeliveryStore;
  sender: WebhookSender;
  clock: Clock;
  policy: AttemptPolicy;
  log: WorkerLog;
}

/** What the worker has done since it started (tests, benchmarks, the log at stop). */
export interface DeliveryStats {
  eventsFannedOut: number;
  messagesCreated: number;
  claimed: number;
  succeeded: number;
  failed: number;
  recorded: number;
  /**
   * Outcomes not written: their message was deleted meanwhile (with its endpoint), or writing them
   * kept failing while other writes succeeded (their claims lapse and the messages are tried again).
   */
  dropped: number;
  purged: number;
}

export const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** Endpoints with due messages the worker keeps in mind between two looks at the database. */
const DUE_ENDPOINTS_LIMIT = 1000;
const PURGE_BATCH = 1000;
/** A database error backs the worker off, doubling from the poll interval up to this. */
const MAX_BACKOFF_MS = 30_000;
/** A failing outcome write is retried this often before it is given up (its claim then lapses). */
const MAX_RECORD_TRIES = 20;

/**
 * The claim's lease: the attempt's time limit, then as long again (2 s to 15 s) to write its
 * outcome. Past it another worker may take the message over, so it must outlast a slow write;
 * a crashed worker's messages wait this long before they are tried again.
 */
export const leaseFor = (timeoutMs: number): number =>
  timeoutMs + Math.min(Math.max(timeoutMs, 2_000), 15_000);

interface PendingOutcome {
  record: AttemptRecord;
  tries: number;
}

/**
 * The webhook delivery worker (issue [7]): fans outbox events out into messages, claims due
 * messages per endpoint within its concurrency bounds (per endpoint, per account, in all; free
 * slots shared across accounts first: claim-plan.ts), sends each through attemptOnce (the one
 * place that decides an attempt's verdict) and writes the outcomes in batches. Only accounts whose
 * plan has webhooks (WEBHOOK_PLANS) get messages, and only theirs are claimed.
 *
 * It holds in memory only what it has started: a claim takes no more messages than there are free
 * slots, and a claimed message is sent at once. What it holds when it dies lapses with the lease
 * and is claimed again (at-least-once). A database or network error is logged and backed off; the
 * worker itself never throws into the process.
 */
export class DeliveryWorker {
  private readonly opts: Required<DeliveryWorkerOptions>;
  private running = false;
  /** Set once stop() gives up: late outcomes are no longer written. */
  private abandoned = false;
  private loop: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;

  /** Attempts in flight per endpoint. */
  private readonly inFlight = new Map<string, number>();
  /** Attempts in flight per account. */
  private readonly inFlightAccounts = new Map<number, number>();
  private inFlightTotal = 0;
  private readonly attempts = new Set<Promise<void>>();
  /** Endpoints with messages due, with their accounts, in turn order; refreshed each poll. */
  private due: DueRef[] = [];
  /**
   * Failure streaks as this worker's own outcomes left them, for attempts already under way on
   * the same endpoint (their claim read the streak before). Forgotten once the endpoint has
   * nothing in flight or unwritten, so a streak cleared elsewhere (PATCH enabled) is read afresh.
   */
  private readonly health = new Map<string, string | null>();
  /** Per endpoint: attempts in flight plus outcomes not yet written. */
  private readonly unsettled = new Map<string, number>();

  private pending: PendingOutcome[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** Outcomes in the write under way. */
  private flushingCount = 0;
  private recordFailures = 0;

  private waiter: { done: () => void; onSlot: boolean } | null = null;
  private wakeRequested = false;
  private nextPurgeAt = 0;

  private readonly plan = fanOutPlanner(() => this.deps.clock.now());
  private readonly limits: ClaimLimits;
  private readonly counts: InFlight = { endpoints: this.inFlight, accounts: this.inFlightAccounts };

  readonly stats: DeliveryStats = {
    eventsFannedOut: 0,
    messagesCreated: 0,
    claimed: 0,
    succeeded: 0,
    failed: 0,
    recorded: 0,
    dropped: 0,
    purged: 0,
  };

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    opts: DeliveryWorkerOptions,
  ) {
    this.opts = {
      fanOutBatch: 500,
      recordBatch: 500,
      recordDelayMs: 10,
      retentionMs: RETENTION_DAYS * DAY_MS,
      purgeEveryMs: 3_600_000,
      stopGraceMs: 5_000,
      ...opts,
    };
    this.limits = { perEndpoint: this.opts.endpointConcurrency, perAccount: this.opts.accountConcurrency };
  }

  start(): void {
    if (this.running || this.stopping) return;
    this.running = true;
    this.deps.log.info(
      {
        concurrency: this.opts.concurrency,
        endpointConcurrency: this.opts.endpointConcurrency,
        accountConcurrency: this.opts.accountConcurrency,
        pollMs: this.opts.pollMs,
        leaseMs: this.opts.leaseMs,
      },
      'webhook delivery worker started',
    );
    this.loop = this.run();
  }

  /** Look now rather than at the next poll (this process has just written events). */
  wake(): void {
    this.wakeRequested = true;
    this.release('wake');
  }

  /**
   * Stops claiming, lets attempts in flight finish and writes their outcomes, within the grace
   * period. What is still in flight after it is abandoned: its claims lapse and another worker,
   * or this one restarted, tries again.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.running = false;
      this.release('wake');
      // One grace period for all of it: a database call that hangs does not hold the stop.
      const deadline = sleep(this.opts.stopGraceMs);
      const loopEnded = await Promise.race([this.loop?.then(() => true), deadline.done.then(() => false)]);
      // The database is not answering: nothing more will be written, the claims lapse.
      if (!loopEnded) this.abandoned = true;
      await Promise.race([Promise.allSettled([...this.attempts]), deadline.done]);
      await Promise.race([this.drain(), deadline.done]);
      deadline.cancel();
      this.abandoned = true;
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = null;
      this.deps.log.info(
        { ...this.stats, abandoned: this.inFlightTotal, unwritten: this.pending.length },
        'webhook delivery worker stopped',
      );
    })();
    return this.stopping;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let nextTick = 0;
    let fanOutBehind = false;
    while (this.running) {
      try {
        const tick = performance.now() >= nextTick || this.wakeRequested;
        if (tick) {
          this.wakeRequested = false;
          nextTick = performance.now() + this.opts.pollMs;
        }
        // One fan-out batch per turn, then claims: a backlog of new events is fanned out while
        // the messages already there are being sent, not before.
        if (tick || fanOutBehind) {
          fanOutBehind = await this.fanOutBatch(fanOutBehind);
          await this.refreshDue();
        }
        if (tick) await this.purge();
        await this.claimAndStart();
        failures = 0;
      } catch (err) {
        failures += 1;
        fanOutBehind = false;
        const delay = Math.min(this.opts.pollMs * 2 ** failures, MAX_BACKOFF_MS);
        this.deps.log.error(
          { err, retryInMs: delay },
          'webhook delivery: a database step failed; trying again later',
        );
        await this.idle(delay, false);
        continue;
      }
      if (!fanOutBehind && !this.hasRoomForDue()) {
        await this.idle(Math.max(0, nextTick - performance.now()), true);
      } else {
        // The database calls are synchronous under the hood (better-sqlite3), so each `await` above
        // resumes at once: without a real turn of the event loop here, a backlog of events kept the
        // loop busy for seconds and the service answered no request meanwhile (bench: 5–16 s).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * One batch of events past the cursor, in one transaction. Returns whether more may be waiting.
   * A cheap read first: most polls find nothing new and take no lock.
   */
  private async fanOutBatch(behind: boolean): Promise<boolean> {
    if (!behind && !(await this.deps.store.outboxAhead())) return false;
    const r = await this.deps.store.fanOut(this.plan, this.opts.fanOutBatch, WEBHOOK_PLANS);
    this.stats.eventsFannedOut += r.events;
    this.stats.messagesCreated += r.messages;
    return r.events === this.opts.fanOutBatch;
  }

  /**
   * Slots free for new claims. Outcomes not yet written count too, beyond one round of in-flight
   * attempts: when writes fall behind, sending slows to their pace rather than piling outcomes up
   * in memory until the claims' leases run out.
   */
  private free(): number {
    const unwritten = this.pending.length + this.flushingCount;
    return Math.min(
      this.opts.concurrency - this.inFlightTotal,
      2 * this.opts.concurrency - this.inFlightTotal - unwritten,
    );
  }

  private async refreshDue(): Promise<void> {
    const due = await this.deps.store.dueEndpoints({
      nowMs: this.deps.clock.now(),
      plans: WEBHOOK_PLANS,
      excludeEndpoints: fullEndpoints(this.counts, this.limits),
      excludeAccounts: fullAccounts(this.counts, this.limits),
      limit: DUE_ENDPOINTS_LIMIT,
    });
    this.due = due.map((d) => ({ endpointId: d.endpointId, accountId: d.accountId }));
  }

  /**
   * Settled messages past the retention, a batch per poll until none is left, then hourly. The
   * outbox is not trimmed here: its rows are the operator's record of events (`purerank events
   * list`), one per event rather than one per endpoint, and the cursor has passed them.
   */
  private async purge(): Promise<void> {
    if (performance.now() < this.nextPurgeAt) return;
    const before = isoTime(this.deps.clock.now() - this.opts.retentionMs);
    const n = await this.deps.store.purgeSettled(before, PURGE_BATCH);
    this.stats.purged += n;
    if (n < PURGE_BATCH) this.nextPurgeAt = performance.now() + this.opts.purgeEveryMs;
  }

  /** Whether a claim now could start anything (else the loop waits for a slot or the next poll). */
  private hasRoomForDue(): boolean {
    if (this.free() <= 0) return false;
    return anyClaimable(this.due, this.counts, this.limits);
  }

  private async claimAndStart(): Promise<void> {
    const free = this.free();
    if (free <= 0 || this.due.length === 0) return;
    const slots = planClaims(this.due, this.counts, this.limits, free);
    if (slots.size === 0) return;
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.claim(slots, now, now + this.opts.leaseMs, WEBHOOK_PLANS);
    this.stats.claimed += claimed.length;
    const got = new Map<string, number>();
    for (const m of claimed) got.set(m.endpointId, (got.get(m.endpointId) ?? 0) + 1);
    // Those served go to the back of the turn order, so the next free slots go to the others first.
    this.due = nextTurnOrder(this.due, slots, got);
    // A stop gave up on this claim (the database was too slow): leave them to lapse.
    if (this.abandoned) return;
    for (const m of claimed) this.begin(m);
  }

  private begin(m: ClaimedMessage): void {
    const ep = m.endpointId;
    const account = m.accountId;
    this.inFlight.set(ep, (this.inFlight.get(ep) ?? 0) + 1);
    this.inFlightAccounts.set(account, (this.inFlightAccounts.get(account) ?? 0) + 1);
    this.inFlightTotal += 1;
    this.unsettled.set(ep, (this.unsettled.get(ep) ?? 0) + 1);
    const failingSince = this.health.has(ep) ? this.health.get(ep)! : m.failingSince;
    let recorded = false;
    const attempt = attemptOnce(
      m,
      { failingSince },
      { sender: this.deps.sender, nowMs: () => this.deps.clock.now(), policy: this.deps.policy },
      'scheduled',
      m.claimToken,
    )
      .then((record) => {
        if (this.abandoned) return;
        if (record.endpoint?.failingSince !== undefined) this.health.set(ep, record.endpoint.failingSince);
        if (record.message?.status === 'succeeded') this.stats.succeeded += 1;
        else this.stats.failed += 1;
        this.pending.push({ record, tries: 0 });
        recorded = true;
        this.scheduleFlush();
      })
      .catch((err: unknown) => {
        // attemptOnce does not throw (the sender answers every failure); if it ever does, the
        // claim lapses and the message is tried again.
        this.deps.log.error({ err, messageId: m.id }, 'webhook delivery: an attempt failed unexpectedly');
      })
      .finally(() => {
        this.inFlight.set(ep, (this.inFlight.get(ep) ?? 1) - 1);
        if (this.inFlight.get(ep) === 0) this.inFlight.delete(ep);
        this.inFlightAccounts.set(account, (this.inFlightAccounts.get(account) ?? 1) - 1);
        if (this.inFlightAccounts.get(account) === 0) this.inFlightAccounts.delete(account);
        this.inFlightTotal -= 1;
        if (!recorded) this.settle(ep);
        this.attempts.delete(attempt);
        if (this.due.length > 0) this.release('slot');
      });
    this.attempts.add(attempt);
  }

  /** One attempt of the endpoint is written (or gone): forget its streak once none is left. */
  private settle(ep: string): void {
    const n = (this.unsettled.get(ep) ?? 1) - 1;
    if (n > 0) this.unsettled.set(ep, n);
    else {
      this.unsettled.delete(ep);
      this.health.delete(ep);
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushing || this.abandoned) return;
    const delay = this.pending.length >= this.opts.recordBatch ? 0 : this.opts.recordDelayMs;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        if (this.pending.length > 0) this.scheduleFlush();
      });
    }, delay);
  }

  /** Writes what is pending now, then returns (the next outcomes schedule their own flush). */
  private async flush(): Promise<void> {
    while (this.pending.length > 0 && !this.abandoned) {
      const batch = this.pending.splice(0, this.opts.recordBatch);
      this.flushingCount = batch.length;
      try {
        this.stats.dropped += await this.deps.store.recordAll(batch.map((p) => p.record));
        this.written(batch);
        this.recordFailures = 0;
      } catch (err) {
        const kept = await this.recordOneByOne(batch);
        if (kept.length === 0) continue;
        this.pending.unshift(...kept);
        this.recordFailures += 1;
        const delay = Math.min(100 * 2 ** this.recordFailures, MAX_BACKOFF_MS);
        this.deps.log.error(
          { err, unwritten: this.pending.length, retryInMs: delay },
          'webhook delivery: writing attempt outcomes failed; trying again later',
        );
        await sleep(delay).done;
      } finally {
        this.flushingCount = 0;
        // Written outcomes free room for claims (see free()).
        if (this.due.length > 0) this.release('slot');
      }
    }
  }

  /**
   * After a batch failed: each outcome alone, so one that cannot be written does not hold up the
   * others. When some succeed the database is up and the ones that still fail are dropped (their
   * claims lapse; the message is tried again). When none succeeds the database is likely down: all
   * are kept, up to MAX_RECORD_TRIES.
   */
  private async recordOneByOne(batch: PendingOutcome[]): Promise<PendingOutcome[]> {
    const failed: PendingOutcome[] = [];
    let wrote = 0;
    for (const p of batch) {
      try {
        this.stats.dropped += await this.deps.store.recordAll([p.record]);
        this.written([p]);
        wrote += 1;
      } catch {
        p.tries += 1;
        failed.push(p);
      }
    }
    const kept = wrote > 0 ? [] : failed.filter((p) => p.tries < MAX_RECORD_TRIES);
    const dropped = failed.filter((p) => !kept.includes(p));
    if (dropped.length > 0) {
      this.stats.dropped += dropped.length;
      this.deps.log.warn(
        { messageIds: dropped.map((p) => p.record.messageId) },
        'webhook delivery: outcomes that cannot be written were dropped (their claims lapse)',
      );
      for (const p of dropped) this.settle(p.record.endpointId);
    }
    return kept;
  }

  private written(batch: PendingOutcome[]): void {
    this.stats.recorded += batch.length;
    for (const p of batch) this.settle(p.record.endpointId);
  }

  /** Writes every outcome held (stop). */
  private async drain(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.flushing;
    await this.flush();
  }

  /**
   * Waits for `ms`, wake() or stop(); with `onSlot`, also for a freed slot (an endpoint with due
   * messages may use it). A backoff after an error waits out its time.
   */
  private idle(ms: number, onSlot: boolean): Promise<void> {
    if (!this.running || this.wakeRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiter = { done, onSlot };
    });
  }

  /** Ends the current wait, after this turn of the event loop: freed slots come in groups. */
  private release(why: 'slot' | 'wake'): void {
    const w = this.waiter;
    if (!w || (why === 'slot' && !w.onSlot)) return;
    this.waiter = null;
    setImmediate(w.done);
  }
}

function sleep(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
}

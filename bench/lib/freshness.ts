import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { systemClock } from '../../src/core/clock.ts';
import { importJsonLines } from '../../src/core/import/import-data.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import type { KeySet } from './keys.ts';
import { BenchError } from './procs.ts';
import { median } from './stats.ts';

/** Target of the scoring issue: an evidence change shows in /api/v1/vendors within this many ms. */
export const FRESHNESS_TARGET_MS = 50;
/** Give up on a change after this long (it then counts as not shown at all)… */
const GIVE_UP_MS = 5000;
/** …or after this many polls (the key budget plans for them). */
export const MAX_POLLS_PER_CHANGE = 5000;
/** Changes made between load runs, per round. */
export const IDLE_CHANGES_PER_ROUND = 3;
/** An import refused as busy is run again up to this many times. */
const MAX_BUSY_RETRIES = 20;
/** Unscored vendors the probe needs at least (it cycles through them). */
const MIN_CANDIDATES = 10;
/** Quiet time after a change has shown, before the next one (the cache fills again). */
const SPACING_MS = 700;

export interface ChangeTiming {
  vendor: string;
  /** Made while wrk loaded the same list on the service. */
  underLoad: boolean;
  /** The import (parse, checks, transaction with the vendor's recomputation) until it returned. */
  applyMs: number;
  /** From the commit (import returned) to the first list response that shows the change. */
  visibleMs: number;
  /** polls sent until then */
  polls: number;
  /** Imports refused with SQLITE_BUSY and run again before this one went through. */
  busyRetries: number;
}

export interface FreshnessSummary {
  n: number;
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  medianApplyMs: number;
  /** Changes that never showed within GIVE_UP_MS. */
  missed: number;
  /** Imports refused with SQLITE_BUSY (and run again), in all. */
  busyRetries: number;
}

export function summarize(changes: readonly ChangeTiming[]): FreshnessSummary {
  const visible = changes.map((c) => c.visibleMs).sort((a, b) => a - b);
  return {
    n: changes.length,
    medianMs: median(visible),
    p90Ms: visible.length
      ? visible[Math.min(visible.length - 1, Math.floor(0.9 * visible.length))]!
      : Number.NaN,
    maxMs: visible.length ? visible.at(-1)! : Number.NaN,
    medianApplyMs: median(changes.map((c) => c.applyMs)),
    missed: changes.filter((c) => !Number.isFinite(c.visibleMs)).length,
    busyRetries: changes.reduce((n, c) => n + c.busyRetries, 0),
  };
}

/**
 * Makes evidence changes the way another process would (`purerank import`: a JSON line through
 * the import parser and the store, one transaction that recomputes the vendor), then polls the
 * service's list until the change shows. A change gives one of the scale dataset's unscored
 * newcomer vendors its first approved batch: the vendor becomes scored, so `total` of every
 * `/api/v1/vendors` page goes up by one and the vendor takes its rank in the list. Once every
 * newcomer has had one, changes reject those batches again (the vendor leaves the ranking, `total`
 * goes down), and so on.
 */
export class FreshnessProbe {
  private next = 0;
  private keyAt = 0;
  private pollsSpent = 0;
  private lab = '';
  /** SQLite result codes of refused imports (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT…). */
  readonly busyCodes = new Set<string>();

  private constructor(
    private readonly store: OpenedStore,
    private readonly candidates: { slug: string; peptide: string }[],
    private readonly url: string,
    private readonly keys: KeySet,
    private readonly auth: { header: string; prefix: string },
  ) {}

  static async open(opts: {
    databaseUrl: string;
    port: number;
    path: string;
    keys: KeySet;
    auth: { header: string; prefix: string };
  }): Promise<FreshnessProbe> {
    const store = await openStore(parseDatabaseUrl(opts.databaseUrl), { migrate: false });
    // Unscored vendors and one peptide each lists (the new batch is of something it sells).
    const rows = await sql<{ slug: string; peptide: string }>`
      select v.slug as slug,
             (select p.slug from prices pr join peptides p on p.id = pr.peptide_id
               where pr.vendor_id = v.id order by p.slug limit 1) as peptide
        from vendors v
       where v.score is null
       order by v.id`.execute(store.kysely);
    const candidates = rows.rows.filter((r) => r.peptide !== null);
    if (candidates.length < MIN_CANDIDATES) {
      await store.close();
      throw new BenchError(
        `freshness needs ${MIN_CANDIDATES} unscored vendors with a listing in the run database, found ` +
          `${candidates.length} (the scale seed makes ~2% newcomers; is the dataset current? --fresh)`,
      );
    }
    const probe = new FreshnessProbe(
      store,
      candidates,
      `http://127.0.0.1:${opts.port}${opts.path}`,
      opts.keys,
      opts.auth,
    );
    const lab = await store.kysely
      .selectFrom('labs')
      .select('slug')
      .where('trusted', '=', 1)
      .orderBy('slug')
      .executeTakeFirst();
    if (!lab) throw new BenchError('no trusted lab in the run database');
    probe.lab = lab.slug;
    return probe;
  }

  /** `total` of the list page, as the service answers now. */
  private async total(): Promise<number> {
    const key = this.keys.keys[this.keyAt++ % this.keys.keys.length]!.key;
    this.pollsSpent++;
    const res = await fetch(this.url, { headers: { [this.auth.header]: this.auth.prefix + key } });
    const text = await res.text();
    if (res.status !== 200) throw new BenchError(`freshness poll: HTTP ${res.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: { total: number } }).data.total;
  }

  async change(underLoad: boolean): Promise<ChangeTiming> {
    // First pass: each newcomer's first approved batch (it becomes scored, `total` + 1); next pass:
    // the same batch rejected (unscored again, `total` − 1); and so on, for as many changes as asked.
    const n = this.next++;
    const c = this.candidates[n % this.candidates.length]!;
    const approve = Math.floor(n / this.candidates.length) % 2 === 0;
    const before = await this.total();
    const now = Date.now();
    const batchId = `BENCH-FRESH-${c.slug}`;
    const line = JSON.stringify(
      approve
        ? {
            type: 'batch',
            vendorSlug: c.slug,
            batchId,
            peptideSlug: c.peptide,
            status: 'approved',
            purity: 99.2,
            lab: this.lab,
            testMethod: 'HPLC-MS',
            testedAt: new Date(now - 3_600_000).toISOString(),
            source: 'bench',
            sourceUrl: `https://${this.lab}.example/verify?report=bench-${n}`,
            submittedAt: new Date(now - 2 * 3_600_000).toISOString(),
          }
        : { type: 'batch', vendorSlug: c.slug, batchId, peptideSlug: c.peptide, status: 'rejected' },
    );
    const t0 = performance.now();
    // SQLite refuses a write transaction that read first once another connection (the service
    // writing rate-limit hits) has committed: SQLITE_BUSY_SNAPSHOT at once, whatever busy_timeout
    // says. The store now takes the write lock first; should it happen, an operator would run the
    // import again, and so does the bench, counting how often (run.ts warns).
    let busy = 0;
    let result: Awaited<ReturnType<typeof importJsonLines>>;
    for (;;) {
      try {
        result = await importJsonLines(
          [line],
          { store: this.store.imports, clock: systemClock },
          { reason: 'bench freshness' },
        );
        break;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || busy >= MAX_BUSY_RETRIES)
          throw err;
        busy++;
        this.busyCodes.add(code);
      }
    }
    const committed = performance.now();
    if (!result.ok) throw new BenchError(`freshness import refused: ${JSON.stringify(result.errors)}`);
    let polls = 0;
    let visibleMs = Number.POSITIVE_INFINITY;
    while (performance.now() - committed < GIVE_UP_MS && polls < MAX_POLLS_PER_CHANGE) {
      polls++;
      if ((await this.total()) !== before) {
        visibleMs = performance.now() - committed;
        break;
      }
    }
    return { vendor: c.slug, underLoad, applyMs: committed - t0, visibleMs, polls, busyRetries: busy };
  }

  /** Requests the polls sent so far (for the key ledger). */
  get requests(): number {
    return this.pollsSpent;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/**
 * The scenario: per round, one wrk run of the list on the service with changes made every
 * ~SPACING_MS while it runs (from 1.5 s in until 1 s before its end), then IDLE_CHANGES_PER_ROUND
 * changes with no load. `loadRun` starts the wrk run and resolves when it has finished.
 */
export async function runFreshness<M>(opts: {
  probe: FreshnessProbe;
  rounds: number;
  duration: number;
  loadRun: (round: number) => Promise<M>;
  log: (line: string) => void;
}): Promise<{ changes: ChangeTiming[]; runs: M[] }> {
  const changes: ChangeTiming[] = [];
  const runs: M[] = [];
  const show = (c: ChangeTiming) =>
    `${Number.isFinite(c.visibleMs) ? `${c.visibleMs.toFixed(1)} ms` : `not within ${GIVE_UP_MS} ms`} ` +
    `(import ${c.applyMs.toFixed(1)} ms${c.busyRetries ? `, ${c.busyRetries}× busy` : ''}, ${c.polls} polls)`;
  for (let r = 0; r < opts.rounds; r++) {
    const started = performance.now();
    const run = opts.loadRun(r);
    let failed: unknown = null;
    run.catch((err: unknown) => {
      failed = err;
    });
    await sleep(1500);
    const loaded: ChangeTiming[] = [];
    while (failed === null && performance.now() - started < opts.duration * 1000 - 1000 - SPACING_MS) {
      const c = await opts.probe.change(true);
      loaded.push(c);
      await sleep(SPACING_MS);
    }
    runs.push(await run);
    changes.push(...loaded);
    opts.log(`freshness round ${r + 1}/${opts.rounds} under load: ${loaded.map(show).join('; ')}`);
    const idle: ChangeTiming[] = [];
    for (let k = 0; k < IDLE_CHANGES_PER_ROUND; k++) {
      await sleep(SPACING_MS);
      idle.push(await opts.probe.change(false));
    }
    changes.push(...idle);
    opts.log(`freshness round ${r + 1}/${opts.rounds} idle: ${idle.map(show).join('; ')}`);
  }
  return { changes, runs };
}

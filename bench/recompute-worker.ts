/**
 * One process that times KyselyImportStore.recomputeAll on a database (bench/lib/recompute.ts
 * starts it, pinned like the service). Prints a `BENCH_SUMMARY {json}` line with the score
 * distribution as found, one `BENCH_RECOMPUTE {json}` line per round, and the peak RSS; after
 * the unchanged re-run, `BENCH_UNSTABLE [examples] N` if it changed stored values after all.
 *
 *   node --import tsx bench/recompute-worker.ts DATABASE_URL ROUNDS SHIFT_DAYS
 *
 * Round r recomputes "as of" now + (r + 1) × SHIFT_DAYS: time moving on changes recency, ages and
 * review weights, so most vendors get new values and every round writes (rows, history, events)
 * as well as reads. A last round at the same instant as the one before changes nothing: it
 * measures reading and computing alone.
 */
import { DAY_MS } from '../src/core/clock.ts';
import { openStore, parseDatabaseUrl } from '../src/storage/open-store.ts';
import { scoreSummary } from './lib/score-summary.ts';

const [url, roundsRaw = '3', shiftRaw = '30'] = process.argv.slice(2);
if (!url) throw new Error('usage: recompute-worker.ts DATABASE_URL ROUNDS SHIFT_DAYS');
const rounds = Number(roundsRaw);
const shiftDays = Number(shiftRaw);

const SCORE_COLUMNS = [
  'id',
  'coa',
  'purity',
  'sentiment',
  'transparency',
  'experience',
  'score',
  'eff_coa',
  'eff_purity',
  'eff_sentiment',
  'eff_transparency',
  'eff_experience',
  'avg_purity',
] as const;

const store = await openStore(parseDatabaseUrl(url), { migrate: false });
try {
  // The dataset as seeded (before time is moved on).
  process.stdout.write(`BENCH_SUMMARY ${JSON.stringify(await scoreSummary(store.kysely))}\n`);
  const base = Date.now();
  const at = Array.from({ length: rounds }, (_, r) => base + (r + 1) * shiftDays * DAY_MS);
  at.push(at.at(-1)!);
  /** The stored values a recompute writes, by vendor id (read outside the timed part). */
  const stored = async () =>
    new Map(
      (await store.kysely.selectFrom('vendors').select(SCORE_COLUMNS).execute()).map(
        (v) => [v.id, v] as const,
      ),
    );
  for (const [r, nowMs] of at.entries()) {
    const nowIso = new Date(nowMs).toISOString();
    const unchanged = r === rounds;
    const before = unchanged ? await stored() : null;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await store.imports.recomputeAll({ nowIso, reason: 'bench recompute' });
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(
      `BENCH_RECOMPUTE ${JSON.stringify({
        round: r,
        nowIso,
        unchanged,
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        vendors: result.vendors,
        updated: result.updated,
        changes: result.changes.length,
        rssMb: process.memoryUsage().rss / 1024 / 1024,
      })}\n`,
    );
    if (before) {
      // Decision 0012: a repeated recompute at the same time writes nothing. Say what moved if not.
      const moved: string[] = [];
      for (const [id, v] of await stored()) {
        const was = before.get(id)!;
        for (const c of SCORE_COLUMNS)
          if (was[c] !== v[c]) moved.push(`vendor ${id} ${c} ${was[c]} → ${v[c]}`);
      }
      if (moved.length)
        process.stdout.write(`BENCH_UNSTABLE ${JSON.stringify(moved.slice(0, 6))} ${moved.length}\n`);
    }
  }
  process.stdout.write(`BENCH_PEAK_RSS ${process.resourceUsage().maxRSS / 1024}\n`);
} finally {
  await store.close();
}

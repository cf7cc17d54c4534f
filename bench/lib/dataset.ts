import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { SCALE_DATASET_VERSION } from '../../src/seed/scale-dataset.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { BenchError } from './procs.ts';
import { tableCount } from './table-count.ts';

export interface ScaleSize {
  vendors: number;
  batches: number;
  reviews: number;
}

/** What `<db>.json` next to a seeded database records: the size and the generator version. */
interface Marker extends ScaleSize {
  version: number;
}

const SIDE_FILES = ['', '-wal', '-shm', '-journal'];
export const removeDb = (path: string) => {
  for (const s of SIDE_FILES) rmSync(path + s, { force: true });
};

/**
 * Moves the webhook fan-out cursor past every event the scale seed wrote (one per review: 200,000).
 * A service started on the dataset as it is fans them out first, 500 per transaction, for tens of
 * seconds: a backlog drain on top of whatever a scenario measures (it ran through every CoA round
 * until 2026-11-24, idle phase included). The seed's events predate any endpoint (the dataset has
 * none), so nothing is skipped that would have been delivered; the scenario is a service in its
 * steady state.
 */
export async function markOutboxFannedOut(dbPath: string): Promise<void> {
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`), { migrate: false });
  try {
    await sql`update webhook_state set outbox_seq = (select coalesce(max(seq), 0) from outbox) where id = 1`.execute(
      store.kysely,
    );
  } finally {
    await store.close();
  }
}

/** Counts what the database holds, to accept a database seeded by hand (no marker file). */
async function countRows(dbPath: string): Promise<ScaleSize> {
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`), { migrate: false });
  try {
    const count = (table: 'vendors' | 'batches' | 'reviews') => tableCount(store.kysely, table);
    return {
      vendors: await count('vendors'),
      batches: await count('batches'),
      reviews: await count('reviews'),
    };
  } finally {
    await store.close();
  }
}

const sameSize = (a: ScaleSize, b: ScaleSize) =>
  a.vendors === b.vendors && a.batches === b.batches && a.reviews === b.reviews;

/**
 * Runs `purerank seed scale` of `size` into `databaseUrl` (a child process, as an operator would)
 * and returns how long it took, wall clock.
 */
export async function seedScale(opts: {
  cwd: string;
  databaseUrl: string;
  size: ScaleSize;
}): Promise<{ seconds: number }> {
  const started = performance.now();
  const child = spawn(
    'node',
    [
      'bin/purerank.js',
      'seed',
      'scale',
      '--vendors',
      String(opts.size.vendors),
      '--batches',
      String(opts.size.batches),
      '--reviews',
      String(opts.size.reviews),
    ],
    {
      cwd: opts.cwd,
      env: { ...process.env, DATABASE_URL: opts.databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new BenchError(`seeding the scale dataset failed (exit ${code})`);
  return { seconds: (performance.now() - started) / 1000 };
}

/**
 * Makes sure `dbPath` holds the scale dataset of `size` from the current generator: reuses it when
 * its marker (or, without one, a row count) says so, else seeds into a temporary file with
 * `purerank seed scale` and moves it in place, so an interrupted seed never leaves a half-loaded
 * database behind. A database from an older generator (SCALE_DATASET_VERSION) is seeded again.
 */
export async function ensureScaleDb(opts: {
  cwd: string;
  dbPath: string;
  size: ScaleSize;
  fresh: boolean;
  log: (line: string) => void;
}): Promise<'reused' | 'seeded'> {
  const marker = `${opts.dbPath}.json`;
  const wanted: Marker = { version: SCALE_DATASET_VERSION, ...opts.size };
  if (!opts.fresh && existsSync(opts.dbPath)) {
    if (existsSync(marker)) {
      const m = JSON.parse(readFileSync(marker, 'utf8')) as Partial<Marker>;
      if (m.version === wanted.version && sameSize(m as ScaleSize, opts.size)) return 'reused';
    } else {
      const n = await countRows(opts.dbPath).catch(() => null);
      if (n && sameSize(n, opts.size)) {
        writeFileSync(marker, JSON.stringify(wanted));
        return 'reused';
      }
    }
    opts.log(
      `${opts.dbPath} does not hold the wanted scale dataset (or is from an older generator); seeding it again`,
    );
  }

  const tmp = `${opts.dbPath}.seeding`;
  removeDb(tmp);
  opts.log(
    `seeding ${opts.size.vendors} vendors, ${opts.size.batches} batches and ${opts.size.reviews} reviews ` +
      '(a minute or two)…',
  );
  try {
    const { seconds } = await seedScale({ cwd: opts.cwd, databaseUrl: `sqlite:${tmp}`, size: opts.size });
    opts.log(`seeded SQLite in ${seconds.toFixed(1)} s`);
  } catch (err) {
    removeDb(tmp);
    throw err;
  }
  removeDb(opts.dbPath);
  rmSync(marker, { force: true });
  // The -wal file (if the seed left one) belongs to the database by name; -shm is rebuilt on open.
  for (const s of ['', '-wal']) if (existsSync(tmp + s)) renameSync(tmp + s, opts.dbPath + s);
  removeDb(tmp);
  writeFileSync(marker, JSON.stringify(wanted));
  return 'seeded';
}

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { BenchError } from './procs.ts';

export interface ScaleSize {
  vendors: number;
  batches: number;
}

const SIDE_FILES = ['', '-wal', '-shm', '-journal'];
const removeDb = (path: string) => {
  for (const s of SIDE_FILES) rmSync(path + s, { force: true });
};

/** Counts what the database holds, to accept a database seeded by hand (no marker file). */
async function countRows(dbPath: string): Promise<ScaleSize> {
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`), { migrate: false });
  try {
    const db = store.kysely;
    const v = await db
      .selectFrom('vendors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const b = await db
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { vendors: Number(v.n), batches: Number(b.n) };
  } finally {
    await store.close();
  }
}

/**
 * Makes sure `dbPath` holds the scale dataset of `size`: reuses it when its marker (or a row count)
 * says so, else seeds into a temporary file with `purerank seed scale` and moves it in place, so an
 * interrupted seed never leaves a half-loaded database behind.
 */
export async function ensureScaleDb(opts: {
  cwd: string;
  dbPath: string;
  size: ScaleSize;
  fresh: boolean;
  log: (line: string) => void;
}): Promise<'reused' | 'seeded'> {
  const marker = `${opts.dbPath}.json`;
  const wanted = JSON.stringify(opts.size);
  if (!opts.fresh && existsSync(opts.dbPath)) {
    if (existsSync(marker)) {
      const m = JSON.parse(readFileSync(marker, 'utf8')) as ScaleSize;
      if (m.vendors === opts.size.vendors && m.batches === opts.size.batches) return 'reused';
    } else {
      const n = await countRows(opts.dbPath).catch(() => null);
      if (n && n.vendors === opts.size.vendors && n.batches === opts.size.batches) {
        writeFileSync(marker, wanted);
        return 'reused';
      }
    }
    opts.log(`${opts.dbPath} does not hold the wanted scale dataset; seeding it again`);
  }

  const tmp = `${opts.dbPath}.seeding`;
  removeDb(tmp);
  opts.log(`seeding ${opts.size.vendors} vendors and ${opts.size.batches} batches (about a minute)…`);
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
    ],
    {
      cwd: opts.cwd,
      env: { ...process.env, DATABASE_URL: `sqlite:${tmp}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) {
    removeDb(tmp);
    throw new BenchError(`seeding the scale dataset failed (exit ${code})`);
  }
  removeDb(opts.dbPath);
  rmSync(marker, { force: true });
  // The -wal file (if the seed left one) belongs to the database by name; -shm is rebuilt on open.
  for (const s of ['', '-wal']) if (existsSync(tmp + s)) renameSync(tmp + s, opts.dbPath + s);
  removeDb(tmp);
  writeFileSync(marker, wanted);
  return 'seeded';
}

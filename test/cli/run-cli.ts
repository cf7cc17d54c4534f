import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, DIALECTS, type Dialect, type TestDatabase } from '../support/databases.ts';

export { DIALECTS, type Dialect };

const ROOT = resolve(import.meta.dirname, '../..');
/** The launcher an operator runs (it picks dist/ or the TypeScript source, decision 0002). */
export const BIN = join(ROOT, 'bin/purerank.js');

/**
 * The CLI the suites spawn: src/main/cli.ts bundled once per test file, so each of the suites'
 * ~150 spawns loads one JavaScript file instead of transpiling the source through tsx (≈ 0.35 s
 * of CPU per spawn instead of ≈ 0.85 s; the CLI suites run on two databases, so that is the
 * difference between a reasonable wall time and a slow one). It is the same source the launcher
 * runs, built the way dist/ is built, only in one file; packages stay external and resolve from
 * the repository's node_modules, hence the location. `--help` goes through BIN itself
 * (accounts-keys.test.ts), so the launcher stays covered.
 */
const BUNDLE_DIR = join(ROOT, 'node_modules/.cache/purerank-cli-tests');
let bundle: Promise<string> | null = null;
function cliEntry(): Promise<string> {
  bundle ??= (async () => {
    mkdirSync(BUNDLE_DIR, { recursive: true });
    // Bundles of runs that were killed before their cleanup: anything older than an hour.
    for (const name of readdirSync(BUNDLE_DIR)) {
      const path = join(BUNDLE_DIR, name);
      try {
        if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true, recursive: true });
      } catch {
        // Another test file removed it first.
      }
    }
    // A folder per bundle: the CLI and, beside it, the threads the service starts (the PDF worker,
    // the webhook delivery thread, the CoA store thread: each is found next to the module that starts it, as dist/ has
    // it), all ESM.
    const dir = join(BUNDLE_DIR, `cli-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
    await build({
      entryPoints: {
        cli: join(ROOT, 'src/main/cli.ts'),
        'extract-worker': join(ROOT, 'src/adapters/pdf/extract-worker.ts'),
        'delivery-thread': join(ROOT, 'src/worker/delivery-thread.ts'),
        'store-thread': join(ROOT, 'src/storage/thread/store-thread.ts'),
      },
      outdir: dir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: true,
      logLevel: 'error',
    });
    const outfile = join(dir, 'cli.js');
    return outfile;
  })();
  return bundle;
}

/**
 * The working directory of spawned commands: a temp folder of this test file, so what the service
 * writes relative to it (on PostgreSQL, the demo key in ./data) stays out of the repository and
 * apart from other files' servers.
 */
const CWD = mkdtempSync(join(tmpdir(), 'purerank-cli-cwd-'));
// Like the repository's own ./data, where a PostgreSQL deployment's demo key is kept.
mkdirSync(join(CWD, 'data'));

// Registered on the suite of the test file that imports this module: its bundle goes with it.
afterAll(async () => {
  if (!bundle) return;
  const outfile = await bundle.catch(() => null);
  if (outfile) rmSync(dirname(outfile), { force: true, recursive: true });
});

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Run through bin/purerank.js rather than the bundle. */
  viaBin?: boolean;
  /** Standard input as separate writes with a pause between them (so they arrive as separate reads). */
  chunks?: Uint8Array[];
}

/** Runs the real CLI as a child process, the way an operator would. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string | Uint8Array,
  opts: RunOptions = {},
): Promise<CliResult> {
  const entry = opts.viaBin ? BIN : await cliEntry();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: CWD,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    // A command that exits before reading its input closes the pipe: not the test's concern.
    child.stdin.on('error', () => {});
    if (!opts.chunks) {
      child.stdin.end(input ?? '');
      return;
    }
    const parts = [...opts.chunks];
    const next = () => {
      const part = parts.shift();
      if (part === undefined) child.stdin.end();
      else child.stdin.write(part, () => setTimeout(next, 50));
    };
    next();
  });
}

/**
 * The database a suite's tests share (one per dialect block of a file): created before its first
 * test, dropped after its last. Spawned commands are slow, so tests share one database and are
 * written to tolerate what earlier tests of the file left in it.
 */
export function suiteDatabase(dialect: Dialect): {
  readonly url: string;
  readonly env: { DATABASE_URL: string };
} {
  let db: TestDatabase | null = null;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await db?.drop();
    db = null;
  });
  const url = (): string => {
    if (!db) throw new Error('suiteDatabase: used outside the suite’s tests');
    return db.url;
  };
  return {
    get url() {
      return url();
    },
    get env() {
      return { DATABASE_URL: url() };
    },
  };
}

/** A fresh, empty database for one test that needs one, dropped after the suite. */
export function freshDatabases(dialect: Dialect): () => Promise<string> {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of made.splice(0)) await db.drop();
  });
  return async () => {
    const db = await createTestDatabase(dialect);
    made.push(db);
    return db.url;
  };
}

/** Starts `purerank serve` and resolves once it prints its address. */
export async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const entry = await cliEntry();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [entry, 'serve'], {
      cwd: CWD,
      env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && /API reference/.test(out)) {
        clearTimeout(timer);
        // Give the remaining start-up lines (demo key) a moment to arrive.
        setTimeout(() => done({ child, base: m[1]!, output: () => out }), 100);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

export function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => done(code));
    child.kill(signal);
  });
}

import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server binaries (apt-get install postgresql-15); PG_BIN overrides. */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * Why a private PostgreSQL server cannot be started here, or null when it can: the binaries are
 * installed, and this process is root (it runs them as the postgres user through runuser) or that
 * user itself (initdb refuses to run as root).
 */
function whyNot(): string | null {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(join(PG_BIN, tool)))
      return `${join(PG_BIN, tool)} is missing (apt-get install postgresql-15)`;
  }
  const me = userInfo().username;
  if (me !== 'postgres' && process.getuid?.() !== 0)
    return `running as ${me}: needs root (runuser) or postgres`;
  return null;
}

const problem = whyNot();
if (problem && process.env.CI === 'true') {
  // CI must exercise the faults: fail loudly instead of skipping.
  throw new Error(`A private PostgreSQL server is required when CI=true: ${problem}`);
}
if (problem)
  console.warn(`[tests] no private PostgreSQL server (${problem}); the PostgreSQL fault suites are skipped.`);

/** Whether the fault suites that stop and start PostgreSQL can run. */
export const PRIVATE_POSTGRES = problem === null;

/** A port nothing listens on now (asked of the kernel). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => done(port));
    });
  });
}

/** Runs a server binary as the postgres user (initdb and postgres refuse root). */
async function asPostgres(tool: string, args: string[]): Promise<string> {
  const bin = join(PG_BIN, tool);
  const asRoot = process.getuid?.() === 0;
  const { stdout } = asRoot
    ? await run('runuser', ['-u', 'postgres', '--', bin, ...args], { timeout: 60_000 })
    : await run(bin, args, { timeout: 60_000 });
  return stdout;
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port with trust
 * authentication, so a test may stop and start it under load. Never the shared server on 5432.
 */
export class PrivatePostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'purerank-pg-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const server = new PrivatePostgres(dir, await freePort());
    // A test process that ends without its afterAll (a crash, a timeout) leaves no server running.
    const leftBehind = () => server.stopNowIfRunning();
    process.once('exit', leftBehind);
    server.forget = () => process.off('exit', leftBehind);
    try {
      await asPostgres('initdb', [
        '-D',
        server.dataDir,
        '-A',
        'trust',
        '-U',
        'postgres',
        '--no-sync',
        '-E',
        'UTF8',
      ]);
      await server.start();
    } catch (err) {
      await server.destroy();
      throw err;
    }
    return server;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** A database URL on this server. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async createDatabase(name: string): Promise<string> {
    const c = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      await c.query(`create database ${name}`);
    } finally {
      await c.end();
    }
    return this.url(name);
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
    ].join(' ');
    await asPostgres('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      join(this.dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  }

  /**
   * Stops the server: `fast` ends every session (clients see 57P01, then connection refused);
   * `immediate` is a crash (no shutdown checkpoint; the next start recovers).
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await asPostgres('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
  }

  /** Stops the server if it runs and removes its directory. */
  async destroy(): Promise<void> {
    if (existsSync(join(this.dataDir, 'postmaster.pid'))) await this.stop('immediate').catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
    this.forget();
  }

  private forget: () => void = () => {};

  /** Synchronous, for process exit: a crash stop of a server still running, and its directory. */
  private stopNowIfRunning(): void {
    try {
      if (existsSync(join(this.dataDir, 'postmaster.pid'))) {
        const pgCtl = join(PG_BIN, 'pg_ctl');
        const args = ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop'];
        if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args]);
        else execFileSync(pgCtl, args);
      }
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // Nothing more can be done while the process exits.
    }
  }
}

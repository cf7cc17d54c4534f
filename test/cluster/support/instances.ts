import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { createTestDatabase, DIALECTS } from '../../support/databases.ts';
import { REDIS_URL, redisProblem } from '../../support/redis.ts';

export { REDIS_URL };

/**
 * Several real `purerank serve` processes on one fresh PostgreSQL database and one Redis (under a
 * key prefix of their own), for the multi-instance suites: test/cluster/three-instances.test.ts,
 * and the nginx test in front of them. Everything goes through the product's own doors: the CLI,
 * the operator API, HTTP over real sockets; nothing here writes SQL.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
/** The launcher an operator runs (dist/ when fresh, else the TypeScript source; decision 0002). */
export const BIN = join(ROOT, 'bin/purerank.js');

export interface Instance {
  base: string;
  pid: number;
  /** Sends the signal (SIGTERM by default) and resolves when the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Everything it wrote to stdout and stderr so far. */
  logs(): string;
}

export interface Cluster {
  bases: string[];
  instances: Instance[];
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  adminToken: string;
  /** The environment every instance and every cli() call gets (on top of the test's own). */
  env: Record<string, string>;
  /** Runs `purerank <args>` against the same database/Redis. */
  cli(args: string[], input?: string): Promise<{ stdout: string; stderr: string; code: number }>;
  /** Kills every instance, drops the database, deletes the Redis keys under the prefix. */
  stop(): Promise<void>;
}

/**
 * Whether PostgreSQL and Redis are both there. With CI=true a missing one fails the importing file
 * at load (databases.ts does it for PostgreSQL, this for Redis); locally the suites are skipped
 * with a warning.
 */
export const clusterAvailable: boolean = await (async () => {
  const redis = await redisProblem();
  if (redis && process.env.CI === 'true')
    throw new Error(`Redis is required when CI=true but is unreachable at ${REDIS_URL}: ${redis}`);
  if (redis) console.warn(`[tests] Redis unreachable (${redis}); the multi-instance suites are skipped.`);
  return redis === null && DIALECTS.includes('postgres');
})();

/** Runs the real CLI as a child process, as an operator would. */
export function runPurerank(
  args: string[],
  env: Record<string, string>,
  opts: { cwd?: string; input?: string } = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...env },
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
    child.on('close', (code, signal) => done({ stdout, stderr, code: code ?? (signal ? 128 : 1) }));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Starts `purerank serve` (with extra arguments, e.g. `--workers 3`) and resolves once the banner
 * says where it listens and is complete (its last line names the webhook delivery, or, with
 * --workers, the processes).
 */
export function spawnServe(
  env: Record<string, string>,
  opts: { cwd: string; args?: string[]; startMs?: number },
): Promise<{ child: ChildProcess; base: string; logs: () => string }> {
  return new Promise((done, fail) => {
    const args = opts.args ?? [];
    const child = spawn(process.execPath, [BIN, 'serve', ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const complete = args.includes('--workers') ? /^Processes: /m : /^Webhook delivery: /m;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`purerank serve did not start within ${opts.startMs ?? 60_000} ms:\n${out}`));
    }, opts.startMs ?? 60_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && complete.test(out)) {
        clearTimeout(timer);
        child.off('exit', onExit);
        done({ child, base: m[1]!, logs: () => out });
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`purerank serve exited with ${code} before it listened:\n${out}`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', onExit);
  });
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

function instanceOf(child: ChildProcess, base: string, logs: () => string): Instance {
  return {
    base,
    pid: child.pid!,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited(child);
    },
    logs,
  };
}

/** Deletes every key under the prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 1000 })) keys.push(...batch);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  } finally {
    redis.disconnect();
  }
}

/**
 * A fresh PostgreSQL database with the demo dataset (loaded with `purerank seed demo`), a Redis
 * prefix of its own, an admin token, and `instances` processes of `purerank serve` on free ports,
 * each running its own webhook delivery thread. Private webhook targets are allowed (a receiver
 * on this machine) and the retry schedule is short, so a retried delivery arrives within the test.
 */
export async function startCluster(opts: {
  instances: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const db = await createTestDatabase('postgres');
  const redisPrefix = `purerank-test:${randomBytes(6).toString('hex')}:`;
  const adminToken = randomBytes(24).toString('hex');
  // The service writes a PostgreSQL deployment's demo key under ./data: keep that out of the repository.
  const cwd = mkdtempSync(join(tmpdir(), 'purerank-cluster-'));
  mkdirSync(join(cwd, 'data'));
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    PURERANK_ADMIN_TOKEN: adminToken,
    PURERANK_SEED_DEMO: 'false',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1s',
    WEBHOOK_POLL_MS: '100',
    // Three processes share two cores: one PDF reader thread each is plenty.
    COA_WORKERS: '1',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  const children: ChildProcess[] = [];
  const cli = (args: string[], input?: string) =>
    runPurerank(args, env, { cwd, ...(input ? { input } : {}) });
  const stop = async () => {
    await Promise.all(
      children.map(async (c) => {
        if (c.exitCode !== null || c.signalCode !== null) return;
        const kill = setTimeout(() => c.kill('SIGKILL'), 12_000);
        c.kill('SIGTERM');
        await exited(c);
        clearTimeout(kill);
      }),
    );
    await db.drop();
    await deleteRedisKeys(redisPrefix);
    rmSync(cwd, { recursive: true, force: true });
  };
  try {
    const seeded = await cli(['seed', 'demo']);
    if (seeded.code !== 0) throw new Error(`purerank seed demo failed:\n${seeded.stderr}`);
    const started = await Promise.allSettled(
      Array.from({ length: opts.instances }, async () => {
        const s = await spawnServe(env, { cwd });
        children.push(s.child);
        return instanceOf(s.child, s.base, s.logs);
      }),
    );
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const instances = started.map((s) => (s as PromiseFulfilledResult<Instance>).value);
    return {
      bases: instances.map((i) => i.base),
      instances,
      databaseUrl: db.url,
      redisUrl: REDIS_URL,
      redisPrefix,
      adminToken,
      env,
      cli,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

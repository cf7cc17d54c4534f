import cluster, { type Worker } from 'node:cluster';
import { reportFailure } from '../cli/output.ts';
import { type Config, ConfigError } from '../config/config.ts';
import { createContainer } from '../container.ts';
import { answerClusterScrapes } from '../http/metrics/cluster-metrics.ts';
import { ensurePortFree } from './port-check.ts';
import {
  type DemoStart,
  demoBanner,
  prepareDemoStart,
  type RunningServer,
  startServer,
  stopOnSignals,
} from './server.ts';

/**
 * `purerank serve --workers N`: N processes on one host behind one port (node:cluster; the primary
 * accepts connections and hands them round-robin to the workers). The primary serves nothing: it
 * migrates and seeds once, forks, prints the banner once, restarts a worker that dies, and on
 * SIGTERM or SIGINT stops them all.
 */

/** Grace a worker gets to stop (stopOnSignals' own), and a second for the primary to see it exit. */
const WORKER_GRACE_MS = 10_000;
const PRIMARY_GRACE_MS = WORKER_GRACE_MS + 1_000;
/** Restart back-off: 1 s, 2 s, 4 s … 30 s; a worker that served this long resets it. */
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
const HEALTHY_AFTER_MS = 30_000;

/** What a worker tells its primary once it listens. */
interface Listening {
  type: 'purerank:listening';
  base: string;
  banner: string[];
}

const isListening = (m: unknown): m is Listening =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'purerank:listening';

/**
 * Refuses N > 1 without REDIS_URL: each process would keep its own rate-limit counts, so a key
 * would get up to N times its quota and revocations of quota would not be shared. One process with
 * in-memory limits stays what `serve` without the flag is.
 */
export function requireSharedLimits(config: Readonly<Config>, workers: number): void {
  if (workers > 1 && !config.redisUrl)
    throw new ConfigError(
      `--workers ${workers} needs REDIS_URL: without it each process counts rate limits on its own and a key would get up to ${workers} times its quota. Set REDIS_URL, or run one process.`,
    );
}

/** The entry of `serve --workers N` in both roles: cluster.fork() re-runs the same command line. */
export async function runCluster(config: Readonly<Config>, workers: number): Promise<void> {
  if (cluster.isWorker) return runWorker(config);
  requireSharedLimits(config, workers);
  // Before the primary migrates and seeds (port-check.ts).
  await ensurePortFree(config.host, config.port);
  return runPrimary(config, workers);
}

async function runWorker(config: Readonly<Config>): Promise<void> {
  let server: RunningServer;
  try {
    // The primary migrated and seeded; N processes doing it again at once would only race.
    server = await startServer({ ...config, seedDemoWhenEmpty: false }, { migrate: false });
  } catch (err) {
    // The IPC channel to the primary would keep this process alive: say why, and go.
    process.exit(reportFailure(err, Boolean(process.env.DEBUG)));
  }
  stopOnSignals(server, WORKER_GRACE_MS);
  const message: Listening = { type: 'purerank:listening', base: server.base, banner: server.banner };
  process.send?.(message);
}

async function runPrimary(config: Readonly<Config>, workers: number): Promise<void> {
  const demo = await prepareOnce(config);
  // A scrape of /metrics reaches one worker; the primary gathers every worker's (cluster-metrics.ts).
  answerClusterScrapes();
  let stopping = false;
  let bannerPrinted = false;
  let failures = 0;
  const started = new Map<Worker, number>();
  const listening = new Set<Worker>();
  const fork = () => {
    const w = cluster.fork();
    started.set(w, Date.now());
    w.on('message', (m: unknown) => {
      if (!isListening(m)) return;
      listening.add(w);
      if (!bannerPrinted && listening.size >= workers) {
        bannerPrinted = true;
        const lines = [
          ...m.banner,
          ...demoBanner(config, m.base, demo),
          `Processes: ${workers} workers (node:cluster, pids ${[...listening].map((x) => x.process.pid).join(', ')}) on one port; SIGTERM or Ctrl-C stops them all`,
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      }
    });
  };

  const exitWhenAllGone = (code: number) => {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
  };
  let exitCode = 0;
  let forwarded: NodeJS.Signals | null = null;
  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (started.get(w) ?? Date.now());
    started.delete(w);
    listening.delete(w);
    if (stopping) {
      // A worker still starting has no handler yet: the forwarded signal ends it, with nothing in flight.
      if (code !== 0 && signal !== forwarded) exitCode = 1;
      exitWhenAllGone(exitCode);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!bannerPrinted) {
      // A worker that cannot start (the port taken, the database unreachable) would fail again:
      // say so and stop, as one `serve` would.
      process.stderr.write(`purerank: worker ${w.process.pid} exited during start-up (${how}); stopping\n`);
      shutDown('SIGTERM', 1);
      return;
    }
    failures = lived >= HEALTHY_AFTER_MS ? 1 : failures + 1;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (failures - 1));
    process.stderr.write(
      `purerank: worker ${w.process.pid} exited unexpectedly (${how}); starting another in ${delay / 1000} s\n`,
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  const shutDown = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    forwarded = signal;
    // Past the workers' own grace, whatever is left is killed and the primary says it failed.
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }, PRIMARY_GRACE_MS).unref();
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    exitWhenAllGone(exitCode);
  };
  process.once('SIGTERM', () => shutDown('SIGTERM'));
  process.once('SIGINT', () => shutDown('SIGINT'));
  for (let i = 0; i < workers; i++) fork();
}

/**
 * Migration, and on an empty database the demo data, once, before any worker starts; the workers
 * then open the store without migrating.
 */
async function prepareOnce(config: Readonly<Config>): Promise<DemoStart> {
  if (!config.seedDemoWhenEmpty) {
    const c = await createContainer(config, { purpose: 'cli' });
    await c.close();
    return { seeded: false, key: null, owner: null };
  }
  // The demo key is checked through the service's authenticator, hence the full container; its
  // limits stay in memory (this process answers no request).
  const c = await createContainer(config, { limiter: 'memory' });
  try {
    return await prepareDemoStart(c);
  } finally {
    await c.close();
  }
}

import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Config, localUrl } from '../config/config.ts';
import { type Container, createContainer, createDeliveryWorker, PRIVATE_URLS_WARNING } from '../container.ts';
import { linkBase, linkUrl } from '../core/users/links.ts';
import { buildApp } from '../http/app.ts';
import { type DemoOwnerAccess, demoOwnerAccess } from '../seed/demo-owner.ts';
import { parseDatabaseUrl } from '../storage/open-store.ts';
import { DeliveryHost } from '../worker/delivery-host.ts';
import { prepareDemo } from './demo-key.ts';
import { hasSingleThreadedGc, PARALLEL_GC_NOTICE } from './gc-mode.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { ensurePortFree } from './port-check.ts';
import { pinTickObjectShape } from './tick-shape.ts';

/** How often expired sessions and used or expired one-time links are deleted. */
const PURGE_EVERY_MS = 60 * 60_000;

export interface RunningServer {
  app: FastifyInstance;
  container: Container;
  /**
   * The webhook delivery worker of this process, in a thread of its own at a lower priority
   * (worker/delivery-host.ts); on an in-memory SQLite database, on the main thread (another
   * connection would open another, empty database). Null when WEBHOOK_WORKER=false.
   */
  worker: { stop(): Promise<void> } | null;
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  base: string;
  /** What a newcomer is told at start-up. */
  banner: string[];
  /**
   * Stops accepting, lets in-flight requests and webhook attempts finish (those past the worker's
   * grace are abandoned: their claims lapse), flushes rate-limit state, closes the store.
   */
  stop(): Promise<void>;
}

/**
 * The service's start: process tuning first (it is process-wide), then the container, demo data on
 * an empty SQLite database, the HTTP app, and listen. Used by `purerank serve`.
 */
export async function startServer(
  config: Readonly<Config>,
  opts: { migrate?: boolean } = {},
): Promise<RunningServer> {
  await ensurePortFree(config.host, config.port);
  limitHeapGrowth(config.heapGrowthPercent);
  // A process-wide V8 detail that costs a fifth of a cached read's throughput (decision 0014).
  await pinTickObjectShape();
  const container = await createContainer(config, { migrate: opts.migrate !== false });
  // SQLite's WAL checkpoints off the main thread (sqlite/checkpointer.ts).
  container.store.checkpointInBackground();
  let app: FastifyInstance;
  let demo: DemoStart = NO_DEMO;
  try {
    if (config.seedDemoWhenEmpty) demo = await prepareDemoStart(container);
    app = await buildApp(container, { logger: { level: config.logLevel } });
    await app.listen({ port: config.port, host: config.host });
    // Load pdfjs in the PDF workers now, in the background: the first CoA upload does not pay the
    // second it takes, and a process that fails to start the workers says so at once.
    container.pdf
      .warm()
      .catch((err: unknown) => app.log.error({ err }, 'the PDF reader workers failed to start'));
    // The CoA upload's database thread, likewise (storage/thread/).
    container.coaStoreThread?.start((err, msg) => app.log.error({ err }, msg));
  } catch (err) {
    await container.close();
    throw err;
  }
  if (config.webhooks.allowPrivateUrls) app.log.warn(PRIVATE_URLS_WARNING);
  // After listen: a process that failed to start never claimed a message.
  const worker = config.webhooks.workerInServe ? startDeliveries(config, container, app.log) : null;
  // /metrics reads the worker's attempts (the thread reports them to its host every second).
  if (worker) app.metrics.countDeliveriesFrom(() => worker.stats);
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const base = localUrl(config, port);
  const banner = [
    `PureRank is listening on ${base} (${container.store.dialect}${config.redisUrl ? ', Redis rate limits' : ''})`,
    `API reference: ${base}/docs`,
    config.adminToken
      ? `Operator API: on, at ${base}/admin/v1 (admin token from PURERANK_ADMIN_TOKEN)`
      : 'Operator API: off (set PURERANK_ADMIN_TOKEN, at least 32 characters, to switch it on)',
  ];
  banner.push(
    worker
      ? 'Webhook delivery: on, in this process (a thread of its own, at a lower priority; WEBHOOK_WORKER=false leaves it to `purerank worker`)'
      : 'Webhook delivery: off in this process (WEBHOOK_WORKER=false); run `purerank worker` to deliver',
  );
  if (!hasSingleThreadedGc()) banner.push(PARALLEL_GC_NOTICE);
  banner.push(...demoBanner(config, base, demo));
  // Sessions and links expire by themselves (every read checks); this only keeps the tables small.
  const purge = setInterval(() => {
    container.identity
      .purgeExpired()
      .catch((err: unknown) => app.log.warn({ err }, 'purging expired sessions and links failed'));
  }, PURGE_EVERY_MS);
  purge.unref();
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(purge);
      await Promise.all([app.close(), worker?.stop()]);
      await container.close();
    })();
    return stopping;
  };
  return { app, container, worker, base, banner, stop };
}

/** What a start found or made of the demo dataset, for the banner. */
export interface DemoStart {
  seeded: boolean;
  key: string | null;
  owner: DemoOwnerAccess | null;
}

const NO_DEMO: DemoStart = { seeded: false, key: null, owner: null };

/**
 * Demo data into an empty database, a working demo key, the demo owner's way in. Once per start:
 * `serve --workers N` runs it in the primary, before forking (src/main/cluster.ts).
 */
export async function prepareDemoStart(container: Container): Promise<DemoStart> {
  const demo = await prepareDemo(container);
  const owner = await demoOwnerAccess({ identity: container.identity, accounts: container.store.accounts });
  return { ...demo, owner };
}

/** The banner's demo lines: what was loaded, the key with a request to try, the dashboard's way in. */
export function demoBanner(config: Readonly<Config>, base: string, demo: DemoStart): string[] {
  const lines: string[] = [];
  if (demo.seeded) lines.push('Loaded the demo dataset into the empty database.');
  if (demo.key) {
    lines.push(`Demo API key (enterprise plan): ${demo.key}`);
    // The URL is quoted: an unquoted `?` is a glob in zsh, which then refuses the command.
    lines.push(`Try: curl -H 'Authorization: Bearer ${demo.key}' '${base}/api/v1/vendors?limit=3'`);
  }
  const owner = demo.owner;
  if (owner?.kind === 'link') {
    // The address it listens on (PORT=0 picks one), unless PURERANK_PUBLIC_URL says where users reach it.
    const link = linkUrl(linkBase(config.pages.publicUrl, base), owner.link.token);
    lines.push(
      `Dashboard: sign in as ${owner.link.user.email} with this one-time link (sets a password; printed until one is set): ${link}`,
    );
  } else if (owner?.kind === 'active') {
    lines.push(
      `Dashboard: ${linkBase(config.pages.publicUrl, base)}/dashboard/sign-in as ${owner.email} (forgot the password? npx purerank users reset ${owner.email})`,
    );
  }
  return lines;
}

/**
 * The delivery worker in its own thread, at a lower priority than this one, which answers the
 * requests: its database calls are synchronous, and sharing this thread a backlog's drain took most
 * of the CPU from the requests (docs/webhooks.md). An in-memory database cannot be opened twice.
 */
function startDeliveries(config: Readonly<Config>, container: Container, log: FastifyBaseLogger) {
  const target = parseDatabaseUrl(config.databaseUrl);
  if (target.kind === 'sqlite' && target.path === ':memory:') {
    const inProcess = createDeliveryWorker(config, container.store, container.clock, container.sender, log);
    inProcess.start();
    return inProcess;
  }
  const host = new DeliveryHost(config, log);
  host.start();
  return host;
}

/** Stops the server on SIGINT or SIGTERM, within a grace period, then exits. */
export function stopOnSignals(server: RunningServer, graceMs = 10_000): void {
  const onSignal = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), graceMs);
    force.unref();
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

import { FsCoaFileStore } from './adapters/coa-files/fs-file-store.ts';
import { PdfPool } from './adapters/pdf/pdf-pool.ts';
import { renderCoa } from './adapters/pdf/render-coa.ts';
import { MemoryRateLimiter, RedisRateLimiter } from './adapters/ratelimit/index.ts';
import { catalogTermIndex } from './adapters/search/catalog-term-index.ts';
import { resolveHost } from './adapters/webhook-http/guarded-sender.ts';
import { type Config, localUrl } from './config/config.ts';
import { Freshness } from './core/catalog/freshness.ts';
import { CatalogReadModel } from './core/catalog/read-model.ts';
import { type Clock, systemClock } from './core/clock.ts';
import type { PdfReader } from './core/coa/model.ts';
import type { CoaRenderer } from './core/coa/sample.ts';
import { CoaVerifier } from './core/coa/verify-coa.ts';
import { AccountKeys } from './core/keys/account-keys.ts';
import { KeyAuthenticator } from './core/keys/authenticate.ts';
import { Operator } from './core/operator/operator.ts';
import type { RateLimiter } from './core/ratelimit/model.ts';
import { CatalogSearch } from './core/search/search-catalog.ts';
import { Usage } from './core/usage/usage.ts';
import { UsageMeter } from './core/usage/usage-meter.ts';
import { Identity } from './core/users/identity.ts';
import { linkBase } from './core/users/links.ts';
import type { IdentityService } from './core/users/model.ts';
import { Webhooks } from './core/webhooks/manage-webhooks.ts';
import type { WebhookSender } from './core/webhooks/model.ts';
import { createWebhookSender, webhookPolicy } from './delivery-container.ts';
import type { AppServices } from './http/services.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from './storage/open-store.ts';
import { StoreThread } from './storage/thread/store-thread-host.ts';
import { threadedCoaPorts } from './storage/thread/threaded-coa-ports.ts';

// The delivery worker's composition lives apart, so the delivery thread loads it without the rest
// of the service (delivery-container.ts); its entry points import it from here as before.
export {
  createDeliveryWorker,
  createWebhookSender,
  PRIVATE_URLS_WARNING,
  webhookPolicy,
} from './delivery-container.ts';

/** What every entry point gets: the configuration, the clock, the store and the operator's use cases. */
export interface CoreContainer {
  config: Readonly<Config>;
  clock: Clock;
  store: OpenedStore;
  operator: Operator;
  /** Users, one-time links, sessions, sign-in (CLI `users`, the operator API, the pages). */
  identity: IdentityService;
  /** Renders a sample CoA PDF (`purerank coa sample`). */
  renderCoa: CoaRenderer;
  close(): Promise<void>;
}

/** The service's container: the core's, plus what serving requests needs (HTTP's AppServices). */
export interface Container extends AppServices, CoreContainer {
  store: OpenedStore;
  /** The guarded outbound HTTP client (webhook deliveries). */
  sender: WebhookSender;
  /** The thread of the CoA upload's database work; null where it runs on the main thread. */
  coaStoreThread: StoreThread | null;
}

export interface ServeOptions {
  purpose?: 'serve';
  clock?: Clock;
  /** 'memory' ignores REDIS_URL (tests, benchmarks). */
  limiter?: 'auto' | 'memory';
  /** false leaves the schema as it is: `serve --workers N`'s primary migrated it before forking. Default true. */
  migrate?: boolean;
}

export interface CliOptions {
  /**
   * A one-shot command: no rate limiter (restoring its hits is a query, Redis a connection), no
   * freshness tracking and no read model. A running server notices the command's writes through the
   * data version the write path bumps, so the operator needs no `afterWrite`.
   */
  purpose: 'cli';
  clock?: Clock;
  /** false leaves the schema as it is (`purerank migrate` reports what it applies). Default true. */
  migrate?: boolean;
}

/**
 * The composition root: the only place that sees both the core's ports and their adapters.
 * SQLite or PostgreSQL by DATABASE_URL; Redis or in-memory rate limiting by REDIS_URL.
 * `serve` and the tests build the full container; the CLI's one-shot commands build the core's part.
 */
export function createContainer(config: Readonly<Config>, opts?: ServeOptions): Promise<Container>;
export function createContainer(config: Readonly<Config>, opts: CliOptions): Promise<CoreContainer>;
export async function createContainer(
  config: Readonly<Config>,
  opts: ServeOptions | CliOptions = {},
): Promise<Container | CoreContainer> {
  const clock = opts.clock ?? systemClock;
  const migrate = opts.migrate !== false;
  const store = await openStore(parseDatabaseUrl(config.databaseUrl), { method: config.scoring, migrate });
  const operator = (afterWrite?: () => Promise<void>) =>
    new Operator({
      store: store.operator,
      writer: store.imports,
      clock,
      historyLength: config.scoreHistoryLength,
      ...(afterWrite ? { afterWrite } : {}),
    });
  if (opts.purpose === 'cli') {
    return {
      config,
      clock,
      store,
      operator: operator(),
      identity: identity(config, store, clock),
      renderCoa,
      close: () => store.close(),
    };
  }
  const pdfReader = new PdfPool({
    ...(config.coa.workers !== null ? { threads: config.coa.workers } : {}),
    timeLimitMs: config.coa.timeLimitMs,
    heapLimitMb: config.coa.heapLimitMb,
    maxPages: config.coa.maxPages,
    maxInflatedBytes: config.coa.maxInflatedBytes,
    maxQueued: 64,
    maxQueuedBytes: config.coa.maxInflightBytes,
  });
  const sender = createWebhookSender(config);
  const storeThread = coaStoreThread(config);
  try {
    const freshness = await Freshness.start(store.state);
    const limiter = await openLimiter(config, store, clock, opts.limiter ?? 'auto');
    // Usage is counted by the admission decision into this meter and flushed every few seconds.
    const usageMeter = new UsageMeter({ clock, store: store.usage });
    return {
      config,
      clock,
      store,
      freshness,
      auth: new KeyAuthenticator(store.keys),
      catalog: new CatalogReadModel(store.catalog),
      limiter,
      search: new CatalogSearch(catalogTermIndex),
      operator: operator(() => freshness.refreshFromNow()),
      identity: identity(config, store, clock),
      renderCoa,
      coa: coaVerifier(config, store, clock, pdfReader, storeThread, freshness),
      coaStoreThread: storeThread,
      pdf: pdfReader,
      webhooks: webhooks(config, store, clock, sender),
      sender,
      accountKeys: new AccountKeys({
        accounts: store.accounts,
        keys: store.keys,
        usage: store.usage,
        pending: usageMeter,
        clock,
      }),
      usage: await usage(config, store, clock, limiter, usageMeter),
      usageMeter,
      async close() {
        await pdfReader.close();
        // The store thread's close (its calls answered, up to 5 s) goes on beside the flushes, so a
        // slow one does not eat the grace the counts need.
        await Promise.all([
          storeThread?.stop(),
          (async () => {
            await sender.close();
            // The limiter's state and the usage counts are flushed together at a graceful stop.
            await limiter.close();
            await usageMeter.close();
          })(),
        ]);
        await store.close();
      },
    };
  } catch (err) {
    await storeThread?.stop();
    await sender.close();
    await store.close();
    throw err;
  }
}

/** An account's usage, judged by the same policy functions as the variants' guards. */
async function usage(
  config: Readonly<Config>,
  store: OpenedStore,
  clock: Clock,
  limiter: RateLimiter,
  pending: UsageMeter,
): Promise<Usage> {
  // Loaded here, not at the top: the CLI's container never serves the API and need not load it.
  const [{ policiesA }, { policiesB }] = await Promise.all([
    import('./http/variant-a/index.ts'),
    import('./http/variant-b/index.ts'),
  ]);
  return new Usage({
    accounts: store.accounts,
    keys: store.keys,
    store: store.usage,
    pending,
    limiter,
    policies: { a: policiesA(config), b: policiesB(config) },
    clock,
  });
}

/** Links point at PURERANK_PUBLIC_URL, else at this machine's port (core/users/links.ts). */
function identity(config: Readonly<Config>, store: OpenedStore, clock: Clock): Identity {
  return new Identity({
    users: store.users,
    sessions: store.sessions,
    accounts: store.accounts,
    clock,
    pages: config.pages,
    linkBase: () => linkBase(config.pages.publicUrl, localUrl(config)),
  });
}

/** The account side of webhooks; the delivery worker (src/worker/) shares its sender and policy. */
function webhooks(
  config: Readonly<Config>,
  store: OpenedStore,
  clock: Clock,
  sender: WebhookSender,
): Webhooks {
  return new Webhooks({
    store: store.webhooks,
    sender,
    clock,
    urls: { allowPrivate: config.webhooks.allowPrivateUrls, resolve: resolveHost },
    policy: webhookPolicy(config),
    maxEndpointsPerAccount: config.webhooks.maxEndpointsPerAccount,
  });
}

/**
 * The thread that runs the CoA upload's database work (storage/thread/), unless COA_STORE_THREAD
 * is off or the database is in memory (a second connection would open another, empty one).
 */
function coaStoreThread(config: Readonly<Config>): StoreThread | null {
  const target = parseDatabaseUrl(config.databaseUrl);
  if (!config.coa.storeThread || (target.kind === 'sqlite' && target.path === ':memory:')) return null;
  return new StoreThread({ databaseUrl: config.databaseUrl, method: config.scoring, poolSize: 4 });
}

function coaVerifier(
  config: Readonly<Config>,
  store: OpenedStore,
  clock: Clock,
  reader: PdfReader,
  thread: StoreThread | null,
  freshness: Freshness,
): CoaVerifier {
  const ports = thread
    ? threadedCoaPorts(thread)
    : { coa: store.coa, batches: store.batches, writer: store.imports };
  return new CoaVerifier({
    store: ports.coa,
    batches: ports.batches,
    writer: ports.writer,
    state: store.state,
    reader,
    clock,
    staleAfterDays: config.batchStaleAfterDays,
    files: config.coa.storeFiles ? new FsCoaFileStore(config.coa.fileDir) : null,
    maxOpenSubmissions: config.coa.maxOpenSubmissions,
    // In a read that begins after the commit (the thread's is another connection's, and a read in
    // flight may have begun before it), before the upload is answered: B's batch lookup then
    // answers `pending` at once.
    afterWrite: () => freshness.refreshFromNow(),
  });
}

/** How long a rate-limit decision waits for Redis before the fallback decides it (measured by the limiter). */
const REDIS_DECISION_TIMEOUT_MS = 500;
/**
 * The client's own limit per command, a backstop for what the limiter does not time itself (PING,
 * refunds): well above the decisions' limit, which a stalled event loop must not trip (decision 0022).
 */
const REDIS_COMMAND_TIMEOUT_MS = 5_000;
/** How long start-up waits for Redis before starting on the fallback (the client keeps trying). */
const REDIS_START_WAIT_MS = 2_000;

async function openLimiter(
  config: Readonly<Config>,
  store: OpenedStore,
  clock: Clock,
  choice: 'auto' | 'memory',
): Promise<RateLimiter> {
  if (!config.redisUrl || choice === 'memory') {
    return MemoryRateLimiter.open({ clock, stateStore: store.rateLimits });
  }
  // Loaded only when Redis is configured: the client library is the heaviest import of the root.
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    // While the connection is down a command fails at once, and the fallback below decides,
    // rather than waiting in a queue while requests pile up behind it (decision 0022).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // Reconnect in the background for as long as it takes: 100 ms, doubling, at most every 2 s.
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times - 1, 5), 2000),
  });
  // Connection errors arrive as events; the limiter's warnings say what they mean for requests.
  let lastError: unknown = null;
  redis.on('error', (err) => {
    lastError = err;
  });
  // Redis away at start is the outage the fallback is for (decision 0022): the instance starts on
  // per-instance limits and moves to shared ones when the reconnecting client gets through. (It
  // used to refuse to start, so a restart during a Redis outage could not bring an instance back.)
  let saidUnavailable = false;
  if (!(await connectWithin(redis, REDIS_START_WAIT_MS))) {
    const why =
      lastError instanceof Error ? lastError.message : `no answer within ${REDIS_START_WAIT_MS / 1000} s`;
    process.emitWarning(
      `Redis at ${redactedUrl(config.redisUrl)} does not answer (${why}): starting with rate limits decided by this instance alone; they are shared once Redis answers (docs/reliability.md)`,
      { code: 'PURERANK_REDIS_LIMITER' },
    );
    saidUnavailable = true;
  }
  // While Redis does not answer, each instance decides alone (fail open, documented drift).
  const fallback = await MemoryRateLimiter.open({ clock });
  // The limiter's keys under the deployment's prefix (REDIS_PREFIX): `purerank:rl:…` by default.
  return new RedisRateLimiter({
    redis,
    clock,
    ownsClient: true,
    prefix: `${config.redisPrefix}rl:`,
    decisionTimeoutMs: REDIS_DECISION_TIMEOUT_MS,
    fallback,
    onFallback: (state, err) => {
      if (state === 'redis-unavailable') {
        // Already said at start (the first decision finds what start-up found).
        if (saidUnavailable) return;
        saidUnavailable = true;
      } else saidUnavailable = false;
      process.emitWarning(
        state === 'redis-unavailable'
          ? `Redis does not answer (${err instanceof Error ? err.message : String(err)}): rate limits are decided by each instance alone until it does (docs/reliability.md)`
          : 'Redis answers again: rate limits are shared again',
        { code: 'PURERANK_REDIS_LIMITER' },
      );
    },
  });
}

/** Whether the client connected within `ms`; if not, it goes on trying in the background. */
async function connectWithin(redis: import('ioredis').Redis, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      redis.connect().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** REDIS_URL as a message may show it: a password (in the authority or the query) replaced by ***. */
function redactedUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    if (url.searchParams.has('password')) url.searchParams.set('password', '***');
    return url.toString();
  } catch {
    return '(REDIS_URL, not a valid URL)';
  }
}

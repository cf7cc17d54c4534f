import { RATE_LIMIT_BOUNDS } from '../core/accounts/custom-limits.ts';
import { PLANS, type Plan } from '../core/accounts/model.ts';
import { DAY_MS, HOUR_MS } from '../core/clock.ts';
import { DEFAULT_METHOD, type MethodParams } from '../core/scoring/method.ts';
import { PILLARS, type Pillar } from '../core/vendors/model.ts';

/**
 * Configuration, parsed once at start-up into a frozen object. This module is the only reader of
 * process.env (STYLE.md). Precedence: defaults ← environment ← flags (passed as overrides).
 */
export interface Config {
  /** TCP port of the HTTP server. Env PORT. (Default: 3000) */
  port: number;
  /** Interface to bind. Env HOST. (Default: 127.0.0.1; use 0.0.0.0 in a container) */
  host: string;
  /** `sqlite:PATH`, a file path, or `postgres://…`. Env DATABASE_URL. (Default: sqlite:./data/purerank.db) */
  databaseUrl: string;
  /** Optional; when set, rate-limit state is shared through Redis. Env REDIS_URL. */
  redisUrl: string | null;
  /**
   * Every Redis key the service writes starts with this, so several deployments or test runs can
   * share one Redis. Env REDIS_PREFIX: 1–64 letters, digits and `:_-.`. (Default: `purerank:`)
   */
  redisPrefix: string;
  /** Bearer token of the operator API; null turns /admin/v1 off. Env PURERANK_ADMIN_TOKEN (≥ 32 chars). */
  adminToken: string | null;
  /** pino level. Env LOG_LEVEL. (Default: info) */
  logLevel: string;
  /** One log line per request. Env LOG_REQUESTS. (Default: false: it costs ~30% throughput) */
  logRequests: boolean;
  /** Answer cached reads ahead of the framework (decision 0011). Env PURERANK_FAST_PATH. (Default: true) */
  fastPath: boolean;
  /**
   * `serve` only: how far V8 may grow the heap between major GCs, as a percentage of what the last
   * one kept (decision 0015). 0 leaves it to V8. Env PURERANK_HEAP_GROWTH_PERCENT. (Default: 50)
   */
  heapGrowthPercent: number;
  /**
   * Load the demo dataset (and print a demo key) when `serve` finds an empty database.
   * Env PURERANK_SEED_DEMO. (Default: true on SQLite, false on PostgreSQL)
   */
  seedDemoWhenEmpty: boolean;
  limits: {
    /** Variant A: requests per UTC hour, per plan. custom = per-account value or this default. */
    hourly: Record<Plan, number>;
    /** Variant B: requests per rolling 24 h, per plan. */
    daily: Record<Plan, number>;
  };
  /** Days after testing beyond which a batch is `stale`. (Default: 150) */
  batchStaleAfterDays: number;
  priceStaleness: { liveStaleMs: number; baselineStaleMs: number };
  /**
   * Parameters of the scoring method (docs/methodology.md). Env SCORE_WEIGHTS
   * (`coa=0.3,purity=0.25,…`, every pillar, positive) and SCORE_MIN_BATCHES (default 1);
   * BATCH_STALE_DAYS also sets the coa pillar's notion of a current CoA.
   */
  scoring: MethodParams;
  /** Entries of score history served (newest N, oldest first). (Default: 30) */
  scoreHistoryLength: number;
  /** Largest import body accepted by POST /admin/v1/import, bytes. (Default: 64 MiB) */
  importMaxBytes: number;
  /**
   * A request's headers must arrive within this, or it is answered 408 and closed (decision 0017).
   * Env PURERANK_HEADERS_TIMEOUT_SECONDS. (Default: 10 s)
   */
  headersTimeoutMs: number;
  /**
   * A whole request, body included, must arrive within this (decision 0017); at least
   * headersTimeoutMs. Env PURERANK_REQUEST_TIMEOUT_SECONDS. (Default: 60 s)
   */
  requestTimeoutMs: number;
  /** CoA upload and reading (docs/operations in README; decision 0019). */
  coa: CoaConfig;
  /** Webhook delivery (docs/webhooks.md; decision 0020). */
  webhooks: WebhookConfig;
  /** Dashboard and console: sign-in, sessions, links (docs/dashboard.md; decision 0021). */
  pages: PagesConfig;
  /**
   * Which peers may say who the client is in `X-Forwarded-For` (PURERANK_TRUST_PROXY): a number of
   * proxy hops, or a comma-separated list of proxy addresses or CIDR ranges. The client address
   * decides per-address sign-in throttling; without this, behind a proxy every user shares the
   * proxy's. (Default: none trusted)
   */
  trustProxy: false | number | string[];
}

export interface PagesConfig {
  /**
   * Where users reach the service, e.g. `https://purerank.example` (PURERANK_PUBLIC_URL): the base
   * of invitation and reset links, and, when https, session cookies are `Secure`. Unset: links use
   * http://localhost:PORT and cookies are not Secure (local development). (Default: unset)
   */
  publicUrl: string | null;
  /** A session ends after this long without a request (PURERANK_SESSION_IDLE_MINUTES). (Default: 8 h) */
  sessionIdleMs: number;
  /** A session ends this long after sign-in whatever happens (PURERANK_SESSION_MAX_HOURS). (Default: 7 days) */
  sessionMaxMs: number;
  /** How long an invitation or reset link works (PURERANK_LINK_HOURS). (Default: 72 h) */
  linkTtlMs: number;
}

export interface WebhookConfig {
  /**
   * Allow http and loopback/private targets (WEBHOOK_ALLOW_PRIVATE_URLS): local development and
   * tests only; the service warns at start when it is on. (Default: false)
   */
  allowPrivateUrls: boolean;
  /** Delay before each retry, ms (WEBHOOK_RETRY_SCHEDULE, e.g. `5s,5m,30m,2h`); jitter ±10 %. */
  retrySchedule: number[];
  /** One attempt's limit, connect to last byte (WEBHOOK_TIMEOUT_MS). (15 s) */
  timeoutMs: number;
  /** Failing without a success this long disables an endpoint (WEBHOOK_DISABLE_AFTER_HOURS). (5 days) */
  disableAfterMs: number;
  /** Attempts in flight per endpoint per worker (WEBHOOK_ENDPOINT_CONCURRENCY). (10) */
  endpointConcurrency: number;
  /** Attempts in flight per worker, all endpoints (WEBHOOK_CONCURRENCY). (200) */
  concurrency: number;
  /**
   * Attempts in flight per account per worker, all its endpoints (WEBHOOK_ACCOUNT_CONCURRENCY):
   * one account's endpoints never take more, so the other accounts keep at least
   * `concurrency - accountConcurrency` slots. (50, a quarter of the default concurrency)
   */
  accountConcurrency: number;
  /** How often the worker looks for new events and due retries (WEBHOOK_POLL_MS). (250 ms) */
  pollMs: number;
  /** Run the delivery worker inside `purerank serve` (WEBHOOK_WORKER). (true) */
  workerInServe: boolean;
  /** Endpoints one account may register (WEBHOOK_MAX_ENDPOINTS). (20) */
  maxEndpointsPerAccount: number;
}

/** Room an upload's body has beyond its file: the form's other parts and the multipart framing. */
export const COA_FORM_OVERHEAD_BYTES = 64 * 1024;

export interface CoaConfig {
  /** Largest PDF accepted, bytes; larger is 413 before the body is read. Env COA_MAX_BYTES. (10 MB) */
  maxBytes: number;
  /** Keep uploaded PDFs (COA_STORE_FILES), in `fileDir` (COA_FILE_DIR), outside the database. */
  storeFiles: boolean;
  fileDir: string;
  /** Worker threads that read PDFs (COA_WORKERS; default cores − 1, at least 1). */
  workers: number | null;
  /** Per document: wall time (COA_TIME_LIMIT_MS), worker heap (COA_HEAP_MB), pages (COA_MAX_PAGES). */
  timeLimitMs: number;
  heapLimitMb: number;
  maxPages: number;
  /** What one document's compressed streams may inflate to in all (COA_MAX_INFLATED_MB). */
  maxInflatedBytes: number;
  /** Upload bodies held in memory at once, bytes (COA_INFLIGHT_MB); past it, 503. */
  maxInflightBytes: number;
  /** Submissions awaiting review one account's uploads may have open (COA_MAX_OPEN_SUBMISSIONS). */
  maxOpenSubmissions: number;
  /**
   * Whether an upload's database work runs on a thread of its own with its own connection
   * (COA_STORE_THREAD, default on; storage/thread/). Off, it runs on the main thread, as it always
   * does on an in-memory database.
   */
  storeThread: boolean;
}

export const DEFAULTS: Config = {
  port: 3000,
  host: '127.0.0.1',
  databaseUrl: 'sqlite:./data/purerank.db',
  redisUrl: null,
  redisPrefix: 'purerank:',
  adminToken: null,
  logLevel: 'info',
  logRequests: false,
  fastPath: true,
  heapGrowthPercent: 50,
  seedDemoWhenEmpty: true,
  limits: {
    hourly: { free: 0, pro: 1_000, enterprise: 10_000, custom: 100_000 },
    daily: { free: 0, pro: 1_000, enterprise: 1_000, custom: 100_000 },
  },
  batchStaleAfterDays: 150,
  priceStaleness: { liveStaleMs: 72 * HOUR_MS, baselineStaleMs: 90 * DAY_MS },
  scoring: DEFAULT_METHOD,
  scoreHistoryLength: 30,
  importMaxBytes: 64 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  coa: {
    maxBytes: 10 * 1000 * 1000,
    storeFiles: false,
    fileDir: './data/coa-files',
    workers: null,
    timeLimitMs: 5_000,
    heapLimitMb: 256,
    maxPages: 50,
    maxInflatedBytes: 128 * 1024 * 1024,
    maxInflightBytes: 64 * 1024 * 1024,
    maxOpenSubmissions: 100,
    storeThread: true,
  },
  webhooks: {
    allowPrivateUrls: false,
    retrySchedule: [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000),
    timeoutMs: 15_000,
    disableAfterMs: 5 * DAY_MS,
    endpointConcurrency: 10,
    concurrency: 200,
    accountConcurrency: 50,
    pollMs: 250,
    workerInServe: true,
    maxEndpointsPerAccount: 20,
  },
  trustProxy: false,
  pages: {
    publicUrl: null,
    sessionIdleMs: 8 * HOUR_MS,
    sessionMaxMs: 7 * DAY_MS,
    linkTtlMs: 72 * HOUR_MS,
  },
};

/**
 * Where a client on this machine reaches the service: the banner, the CLI's one-time links and its
 * sample commands all say the same address (0.0.0.0 and :: listen everywhere, 127.0.0.1 among them).
 */
export function localUrl(config: Pick<Config, 'host' | 'port'>, port = config.port): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function redisPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return DEFAULTS.redisPrefix;
  if (/^[A-Za-z0-9:_.-]{1,64}$/.test(raw)) return raw;
  throw new ConfigError(
    `REDIS_PREFIX must be 1 to 64 letters, digits, colons, dots, dashes or underscores, got '${raw}'.`,
  );
}

/** A hop count (1..10) or a list of addresses / CIDR ranges; `true` (trust anyone) is refused. */
function trustProxy(raw: string | undefined): false | number | string[] {
  if (raw === undefined || raw.trim() === '') return false;
  const t = raw.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    if (n >= 1 && n <= 10) return n;
  } else {
    const list = t.split(',').map((x) => x.trim());
    if (list.every((x) => /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/.test(x) && x.length <= 50)) return list;
  }
  throw new ConfigError(
    `PURERANK_TRUST_PROXY must be a number of proxy hops (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges, got '${raw}'.`,
  );
}

/** An absolute http(s) URL without a trailing slash, or null when unset. */
function publicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new ConfigError(`PURERANK_PUBLIC_URL must be an absolute http(s) URL, got '${raw}'.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ConfigError(`PURERANK_PUBLIC_URL must be an absolute http(s) URL, got '${raw}'.`);
  return u.href.replace(/\/+$/, '');
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const int = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
};

const bool = (env: Env, name: string, fallback: boolean): boolean => {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'`);
};

const decimal = (env: Env, name: string, min: number, max: number): number => {
  const raw = env[name] ?? '';
  const n = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
};

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: HOUR_MS, d: DAY_MS };

/** `5s,5m,30m,2h` → milliseconds; one to 50 steps, each from 1 ms to 7 days. */
function durations(name: string, raw: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  const out = parts.map((p) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(p);
    const ms = m ? Math.round(Number(m[1]) * UNIT_MS[m[2]!]!) : Number.NaN;
    if (!(ms >= 1 && ms <= 7 * DAY_MS)) {
      throw new ConfigError(
        `${name}: each step is a number and a unit (ms, s, m, h, d), 1 ms to 7 d; got "${p}"`,
      );
    }
    return ms;
  });
  if (out.length > 50) throw new ConfigError(`${name} has at most 50 steps, got ${out.length}`);
  return out;
}

function weights(env: Env): Record<Pillar, number> {
  const raw = env.SCORE_WEIGHTS;
  if (raw === undefined || raw === '') return { ...DEFAULT_METHOD.weights };
  const out: Partial<Record<Pillar, number>> = {};
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((x) => x.trim());
    const n = Number(value);
    if (!(PILLARS as readonly string[]).includes(name ?? '') || value === undefined || !(n > 0) || n > 100) {
      throw new ConfigError(
        `SCORE_WEIGHTS must list every pillar as name=weight (positive), e.g. coa=0.3,purity=0.25,…; got '${raw}'`,
      );
    }
    out[name as Pillar] = n;
  }
  const missing = PILLARS.filter((p) => out[p] === undefined);
  if (missing.length) throw new ConfigError(`SCORE_WEIGHTS is missing ${missing.join(', ')}`);
  return out as Record<Pillar, number>;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const adminToken = env.PURERANK_ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < 32) {
    throw new ConfigError(
      'PURERANK_ADMIN_TOKEN must be at least 32 characters (or unset to turn the operator API off)',
    );
  }
  const cfg: Config = {
    ...DEFAULTS,
    port: int(env, 'PORT', DEFAULTS.port, 0, 65_535),
    host: env.HOST || DEFAULTS.host,
    databaseUrl: env.DATABASE_URL || DEFAULTS.databaseUrl,
    redisUrl: env.REDIS_URL || null,
    redisPrefix: redisPrefix(env.REDIS_PREFIX),
    adminToken,
    logLevel: env.LOG_LEVEL || DEFAULTS.logLevel,
    logRequests: bool(env, 'LOG_REQUESTS', DEFAULTS.logRequests),
    fastPath: bool(env, 'PURERANK_FAST_PATH', DEFAULTS.fastPath),
    heapGrowthPercent: int(env, 'PURERANK_HEAP_GROWTH_PERCENT', DEFAULTS.heapGrowthPercent, 0, 1000),
    seedDemoWhenEmpty: bool(env, 'PURERANK_SEED_DEMO', !/^postgres/i.test(env.DATABASE_URL ?? '')),
    batchStaleAfterDays: int(env, 'BATCH_STALE_DAYS', DEFAULTS.batchStaleAfterDays, 1, 3650),
    priceStaleness: {
      liveStaleMs: int(env, 'PRICE_LIVE_STALE_HOURS', 72, 1, 24 * 365) * HOUR_MS,
      baselineStaleMs: int(env, 'PRICE_BASELINE_STALE_DAYS', 90, 1, 3650) * DAY_MS,
    },
    scoring: {
      ...DEFAULT_METHOD,
      weights: weights(env),
      staleAfterDays: int(env, 'BATCH_STALE_DAYS', DEFAULTS.batchStaleAfterDays, 1, 3650),
      minApprovedBatches: int(env, 'SCORE_MIN_BATCHES', DEFAULT_METHOD.minApprovedBatches, 1, 1000),
    },
    scoreHistoryLength: int(env, 'SCORE_HISTORY_LENGTH', DEFAULTS.scoreHistoryLength, 1, 1000),
    headersTimeoutMs: int(env, 'PURERANK_HEADERS_TIMEOUT_SECONDS', 10, 1, 600) * 1000,
    requestTimeoutMs: int(env, 'PURERANK_REQUEST_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    coa: {
      maxBytes: int(env, 'COA_MAX_BYTES', DEFAULTS.coa.maxBytes, 1024, 200 * 1000 * 1000),
      storeFiles: bool(env, 'COA_STORE_FILES', DEFAULTS.coa.storeFiles),
      fileDir: env.COA_FILE_DIR || DEFAULTS.coa.fileDir,
      workers: env.COA_WORKERS ? int(env, 'COA_WORKERS', 1, 1, 64) : null,
      timeLimitMs: int(env, 'COA_TIME_LIMIT_MS', DEFAULTS.coa.timeLimitMs, 100, 120_000),
      heapLimitMb: int(env, 'COA_HEAP_MB', DEFAULTS.coa.heapLimitMb, 32, 4096),
      maxPages: int(env, 'COA_MAX_PAGES', DEFAULTS.coa.maxPages, 1, 10_000),
      maxInflatedBytes: int(env, 'COA_MAX_INFLATED_MB', 128, 1, 4096) * 1024 * 1024,
      maxInflightBytes: int(env, 'COA_INFLIGHT_MB', 64, 1, 4096) * 1024 * 1024,
      maxOpenSubmissions: int(env, 'COA_MAX_OPEN_SUBMISSIONS', DEFAULTS.coa.maxOpenSubmissions, 1, 1_000_000),
      storeThread: bool(env, 'COA_STORE_THREAD', DEFAULTS.coa.storeThread),
    },
    webhooks: {
      allowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', DEFAULTS.webhooks.allowPrivateUrls),
      retrySchedule: env.WEBHOOK_RETRY_SCHEDULE
        ? durations('WEBHOOK_RETRY_SCHEDULE', env.WEBHOOK_RETRY_SCHEDULE)
        : DEFAULTS.webhooks.retrySchedule,
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', DEFAULTS.webhooks.timeoutMs, 100, 120_000),
      disableAfterMs:
        env.WEBHOOK_DISABLE_AFTER_HOURS !== undefined && env.WEBHOOK_DISABLE_AFTER_HOURS !== ''
          ? decimal(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 0, 24 * 365) * HOUR_MS
          : DEFAULTS.webhooks.disableAfterMs,
      endpointConcurrency: int(
        env,
        'WEBHOOK_ENDPOINT_CONCURRENCY',
        DEFAULTS.webhooks.endpointConcurrency,
        1,
        1000,
      ),
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', DEFAULTS.webhooks.concurrency, 1, 10_000),
      accountConcurrency: int(
        env,
        'WEBHOOK_ACCOUNT_CONCURRENCY',
        DEFAULTS.webhooks.accountConcurrency,
        1,
        10_000,
      ),
      pollMs: int(env, 'WEBHOOK_POLL_MS', DEFAULTS.webhooks.pollMs, 10, 60_000),
      workerInServe: bool(env, 'WEBHOOK_WORKER', DEFAULTS.webhooks.workerInServe),
      maxEndpointsPerAccount: int(
        env,
        'WEBHOOK_MAX_ENDPOINTS',
        DEFAULTS.webhooks.maxEndpointsPerAccount,
        1,
        1000,
      ),
    },
    trustProxy: trustProxy(env.PURERANK_TRUST_PROXY),
    pages: {
      publicUrl: publicUrl(env.PURERANK_PUBLIC_URL),
      sessionIdleMs: int(env, 'PURERANK_SESSION_IDLE_MINUTES', 8 * 60, 1, 30 * 24 * 60) * 60_000,
      sessionMaxMs: int(env, 'PURERANK_SESSION_MAX_HOURS', 7 * 24, 1, 365 * 24) * HOUR_MS,
      linkTtlMs: int(env, 'PURERANK_LINK_HOURS', 72, 1, 30 * 24) * HOUR_MS,
    },
    ...overrides,
  };
  if (cfg.requestTimeoutMs < cfg.headersTimeoutMs) {
    throw new ConfigError(
      'PURERANK_REQUEST_TIMEOUT_SECONDS must be at least PURERANK_HEADERS_TIMEOUT_SECONDS (a request includes its headers)',
    );
  }
  if (cfg.coa.maxInflightBytes < cfg.coa.maxBytes + COA_FORM_OVERHEAD_BYTES) {
    throw new ConfigError(
      `COA_INFLIGHT_MB must hold at least one upload of COA_MAX_BYTES (${cfg.coa.maxBytes} bytes) and its form: raise it or lower COA_MAX_BYTES`,
    );
  }
  checkPlanLimits(cfg.limits);
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(cfg.logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  return Object.freeze(cfg);
}

/**
 * Plan limits obey the bounds of per-account limits (core/accounts/custom-limits.ts: integers, A
 * ≤ 10,000,000 / h, B ≤ 1,000,000 / 24 h for the memory of the rolling window), except that 0 is
 * allowed: a plan without access to a variant (free).
 */
function checkPlanLimits(limits: Config['limits']): void {
  const sets = [
    ['hourly', limits.hourly, RATE_LIMIT_BOUNDS.rateLimitA.max],
    ['daily', limits.daily, RATE_LIMIT_BOUNDS.rateLimitB.max],
  ] as const;
  for (const [name, byPlan, max] of sets) {
    for (const plan of PLANS) {
      const n = byPlan[plan];
      if (!Number.isSafeInteger(n) || n < 0 || n > max) {
        throw new ConfigError(`limits.${name}.${plan} must be a whole number from 0 to ${max}, got ${n}`);
      }
    }
  }
}

import type { Kysely } from 'kysely';
import { ChangeSignal } from '../core/catalog/change-signal.ts';
import type { Store } from '../core/ports.ts';
import { DEFAULT_METHOD, type MethodParams } from '../core/scoring/method.ts';
import { type DialectCapabilities, POSTGRES, SQLITE } from './dialect.ts';
import { migrateToLatest } from './migrations/index.ts';
import { connectPostgres, PostgresChangeListener } from './postgres/connect.ts';
import type { Database } from './schema.ts';
import { type Checkpointer, startCheckpointer } from './sqlite/checkpointer.ts';
import { connectSqlite, sqliteChangeProbe } from './sqlite/connect.ts';
import { type HitWriter, sqliteHitWriter } from './sqlite/rate-limit-writer.ts';
import { KyselyBatchStore } from './stores/batch-store.ts';
import { KyselyCatalogStore } from './stores/catalog-store.ts';
import { KyselyCoaStore } from './stores/coa-store.ts';
import { KyselyDeliveryStore } from './stores/delivery-store.ts';
import { KyselyImportStore } from './stores/import-store.ts';
import { KyselyAccountStore, KyselyKeyStore } from './stores/key-store.ts';
import { KyselyOperatorStore } from './stores/operator-store.ts';
import { KyselyOutboxStore } from './stores/outbox-store.ts';
import { KyselyPriceHistoryStore } from './stores/price-history.ts';
import { KyselyRateLimitStateStore } from './stores/rate-limit-store.ts';
import { KyselySessionStore } from './stores/session-store.ts';
import { KyselyStateStore } from './stores/state-store.ts';
import { KyselyUsageStore } from './stores/usage-store.ts';
import { KyselyUserStore } from './stores/user-store.ts';
import { KyselyWebhookStore } from './stores/webhook-store.ts';

/** The migration that introduced scoring method v1 (issue [3]). */
const METHOD_V1_MIGRATION = '0002-outbox-and-audit';

export type StoreTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** `postgres://…` or `postgresql://…` → PostgreSQL; `sqlite:PATH`, `file:PATH` or a bare path → SQLite. */
export function parseDatabaseUrl(url: string): StoreTarget {
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: 'postgres', url };
  const path = url.replace(/^(sqlite|file):(\/\/)?/i, '');
  if (path === '') throw new Error('DATABASE_URL names no SQLite file');
  return { kind: 'sqlite', path };
}

export interface OpenedStore extends Store {
  imports: KyselyImportStore;
  outbox: KyselyOutboxStore;
  /** For tests and tools that need raw access (contract suite, benchmarks). */
  readonly kysely: Kysely<Database>;
  readonly caps: DialectCapabilities;
  migrate(): Promise<string[]>;
  /**
   * SQLite: WAL checkpoints from now on run on a thread of their own (sqlite/checkpointer.ts), not
   * inside a commit on the main thread. For a long-running server; nothing on PostgreSQL.
   */
  checkpointInBackground(): void;
}

export async function openStore(
  target: StoreTarget,
  opts: {
    migrate?: boolean;
    poolSize?: number;
    method?: MethodParams;
    /**
     * PostgreSQL: LISTEN for other connections' commits (default true). A store that never reads
     * the data state (the CoA store thread's) does without that connection.
     */
    listen?: boolean;
  } = {},
): Promise<OpenedStore> {
  let db: Kysely<Database>;
  let caps: DialectCapabilities;
  let probe: () => boolean;
  let stop: () => Promise<void>;
  let writeHits: HitWriter | undefined;
  let rawSqlite: import('better-sqlite3').Database | undefined;
  let checkpointer: Checkpointer | null = null;
  let checkpointInBackground = () => {};
  const applied: string[] = [];
  if (target.kind === 'sqlite') {
    const h = connectSqlite(target.path);
    db = h.db;
    caps = SQLITE;
    probe = sqliteChangeProbe(h.raw);
    rawSqlite = h.raw;
    const path = target.path;
    checkpointInBackground = () => {
      if (path !== ':memory:') checkpointer ??= startCheckpointer(path);
    };
    stop = async () => {
      await checkpointer?.stop();
      await db.destroy();
    };
  } else {
    const h = connectPostgres(target.url, opts.poolSize);
    db = h.db;
    caps = POSTGRES;
    const listener = opts.listen === false ? null : new PostgresChangeListener(target.url);
    probe = listener ? listener.probe : () => false;
    stop = async () => {
      await listener?.stop();
      await db.destroy();
    };
    if (opts.migrate !== false) applied.push(...(await migrateToLatest(db, caps)).applied);
    await listener?.start();
  }
  if (target.kind === 'sqlite' && opts.migrate !== false)
    applied.push(...(await migrateToLatest(db, caps)).applied);
  if (target.kind === 'sqlite' && rawSqlite) writeHits = sqliteHitWriter(rawSqlite);
  const signal = new ChangeSignal();
  const suspected = () => {
    const own = signal.take();
    const other = probe();
    return own || other;
  };
  const imports = new KyselyImportStore(db, caps, signal, opts.method ?? DEFAULT_METHOD);
  /**
   * Migration 0002 brings method v1: a database scored by v0 (pillars typed in as overrides) gets
   * its pillars computed from its evidence once, as part of the upgrade.
   */
  const afterMigrations = async (names: string[]) => {
    if (names.includes(METHOD_V1_MIGRATION)) {
      await imports.recomputeAll({ nowIso: new Date().toISOString(), reason: 'method v1' });
    }
  };
  await afterMigrations(applied);
  return {
    dialect: caps.name,
    caps,
    kysely: db,
    state: new KyselyStateStore(db, suspected),
    accounts: new KyselyAccountStore(db, caps, signal),
    keys: new KyselyKeyStore(db, caps, signal),
    catalog: new KyselyCatalogStore(db),
    batches: new KyselyBatchStore(db),
    imports,
    outbox: new KyselyOutboxStore(db),
    operator: new KyselyOperatorStore(db),
    coa: new KyselyCoaStore(db),
    webhooks: new KyselyWebhookStore(db),
    deliveries: new KyselyDeliveryStore(db, caps),
    users: new KyselyUserStore(db),
    sessions: new KyselySessionStore(db),
    rateLimits: new KyselyRateLimitStateStore(db, caps, writeHits),
    usage: new KyselyUsageStore(db, caps),
    priceHistory: new KyselyPriceHistoryStore(db),
    migrate: async () => {
      const names = (await migrateToLatest(db, caps)).applied;
      await afterMigrations(names);
      return names;
    },
    checkpointInBackground,
    close: stop,
  };
}

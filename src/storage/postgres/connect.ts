import { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.ts';
import { UnreachableMappingDialect } from './unreachable.ts';

export const CHANGE_CHANNEL = 'purerank_changes';

// int8 (counters, versions) fits a JS number for any realistic value; parse it as one.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface PostgresHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
}

/**
 * How long a query waits for a connection (a free one in the pool, or a new one to a server that
 * does not answer) before it fails as StoreUnavailableError: a request never hangs on a database
 * that has gone away.
 */
const CONNECT_TIMEOUT_MS = 5_000;

export function connectPostgres(url: string, poolSize = 10): PostgresHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor one that is checked out between two queries (inside a transaction): the pool listens to
  // its clients only while they are idle, and an 'error' nobody listens to ends the process. Its
  // next query fails instead, and the pool drops the dead client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  // The dialect maps "the server cannot be reached" to StoreUnavailableError (unreachable.ts).
  return { db: new Kysely<Database>({ dialect: new UnreachableMappingDialect({ pool }) }), pool };
}

/** The LISTEN connection is opened again after it is lost, waiting this long, doubling up to the most. */
const RESUBSCRIBE_FIRST_MS = 100;
const RESUBSCRIBE_MOST_MS = 1_000;

/**
 * Change detection for PostgreSQL: LISTEN on a channel that writers NOTIFY inside their
 * transaction (delivered only on commit), plus a poll as a safety net for missed notifications.
 * A lost LISTEN connection (the server restarted) is opened again by itself, and the first probe
 * after that reports a change, since notifications sent meanwhile were not heard.
 */
export class PostgresChangeListener {
  private suspected = false;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = RESUBSCRIBE_FIRST_MS;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly pollMs = 1000,
  ) {}

  /** Subscribes; fails when the server cannot be reached (the service does not start without it). */
  async start(): Promise<void> {
    await this.subscribe();
    this.timer = setInterval(() => {
      this.suspected = true;
    }, this.pollMs);
    this.timer.unref();
  }

  /** Whether the LISTEN connection is up (tests, diagnostics). */
  get listening(): boolean {
    return this.client !== null;
  }

  private async subscribe(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // Until connected, a failure rejects connect(); an 'error' nobody listens to would end the process.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      this.suspected = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      this.resubscribeLater();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', () => {
      this.suspected = true;
    });
    this.client = client;
    this.retryMs = RESUBSCRIBE_FIRST_MS;
    // Commits made while nobody listened were not notified: the next probe reads once.
    this.suspected = true;
  }

  private resubscribeLater(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.subscribe().catch(() => {
        this.retryMs = Math.min(this.retryMs * 2, RESUBSCRIBE_MOST_MS);
        this.resubscribeLater();
      });
    }, this.retryMs);
    this.retry.unref();
  }

  probe = (): boolean => {
    if (!this.suspected) return false;
    this.suspected = false;
    return true;
  };

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}

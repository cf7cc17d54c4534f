import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.ts';

export const CHANGE_CHANNEL = 'purerank_changes';

// int8 (counters, versions) fits a JS number for any realistic value; parse it as one.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface PostgresHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
}

export function connectPostgres(url: string, poolSize = 10): PostgresHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor one that is checked out between two queries (inside a transaction): the pool listens to
  // its clients only while they are idle, and an 'error' nobody listens to ends the process. Its
  // next query fails instead, and the pool drops the dead client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
}

/**
 * Change detection for PostgreSQL: LISTEN on a channel that writers NOTIFY inside their
 * transaction (delivered only on commit), plus a poll as a safety net for missed notifications.
 */
export class PostgresChangeListener {
  private suspected = false;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly pollMs = 1000,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => {
      this.suspected = true;
    });
    client.on('notification', () => {
      this.suspected = true;
    });
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    this.client = client;
    this.timer = setInterval(() => {
      this.suspected = true;
    }, this.pollMs);
    this.timer.unref();
  }

  probe = (): boolean => {
    if (!this.suspected) return false;
    this.suspected = false;
    return true;
  };

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}

import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { StoreUnavailableError } from '../../core/errors.ts';

/*
 * The one place that decides "the database cannot be reached" on PostgreSQL. Every query, every
 * connection checked out of the pool and every transaction statement of the store goes through the
 * driver below, so such an error leaves the storage adapter as StoreUnavailableError (HTTP: 503
 * `service_unavailable` with Retry-After), never as the driver's text or a 500. Any other error
 * (a constraint, a serialization failure, a bug) passes through unchanged.
 */

/** Socket-level codes of a server that is down, restarting or cut off. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not yet back: 57P01 admin_shutdown (a fast stop or
 * restart ends every session), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, or in
 * recovery), 53300 too_many_connections (every slot taken while sessions come back). Class 08
 * (connection exceptions) is matched by its prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What pg and pg-pool say, without a code, when a connection ends or cannot be had in time. */
const UNREACHABLE_MESSAGES = [
  // 'Connection terminated unexpectedly', '… due to connection timeout'
  'Connection terminated',
  // pg-pool: no connection within connectionTimeoutMillis
  'timeout exceeded when trying to connect',
  // a client whose connection broke, asked again
  'is not queryable',
];

/** True when `err` says the database cannot be reached now (as opposed to refusing the query). */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return true;
  }
  if (UNREACHABLE_MESSAGES.some((m) => err.message.includes(m))) return true;
  // pg-pool wraps a connect timeout's cause; an AggregateError carries one per address tried.
  if (err.cause !== undefined && err.cause !== err && isDatabaseUnreachable(err.cause)) return true;
  if (err instanceof AggregateError) return err.errors.some((e) => isDatabaseUnreachable(e));
  return false;
}

/** The error as the store raises it: unreachable → StoreUnavailableError, anything else unchanged. */
export function storeError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  return isDatabaseUnreachable(err) ? new StoreUnavailableError(err) : err;
}

async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw storeError(err);
  }
}

class MappedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return mapped(() => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (err) {
      throw storeError(err);
    }
  }
}

/** The same connection object for a pooled client each time, so Kysely's bookkeeping holds. */
const wrapped = new WeakMap<DatabaseConnection, MappedConnection>();
const unwrap = (c: DatabaseConnection): DatabaseConnection => (c instanceof MappedConnection ? c.inner : c);

class MappedDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return mapped(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const c = await mapped(() => this.inner.acquireConnection());
    let m = wrapped.get(c);
    if (!m) {
      m = new MappedConnection(c);
      wrapped.set(c, m);
    }
    return m;
  }

  beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return mapped(() => this.inner.beginTransaction(unwrap(c), settings));
  }

  commitTransaction(c: DatabaseConnection): Promise<void> {
    return mapped(() => this.inner.commitTransaction(unwrap(c)));
  }

  rollbackTransaction(c: DatabaseConnection): Promise<void> {
    return mapped(() => this.inner.rollbackTransaction(unwrap(c)));
  }

  async savepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await mapped(async () => this.inner.savepoint?.(unwrap(c), name, compile));
  }

  async rollbackToSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await mapped(async () => this.inner.rollbackToSavepoint?.(unwrap(c), name, compile));
  }

  async releaseSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await mapped(async () => this.inner.releaseSavepoint?.(unwrap(c), name, compile));
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(c));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Kysely's PostgreSQL dialect whose errors of an unreachable server are StoreUnavailableError. */
export class UnreachableMappingDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new MappedDriver(super.createDriver());
  }
}

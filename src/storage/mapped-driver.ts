import type {
  CompiledQuery,
  DatabaseConnection,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/*
 * A Kysely driver whose errors pass through one function on their way out: each dialect's adapter
 * turns its driver's "cannot be reached" or "busy" errors into StoreUnavailableError there
 * (postgres/unreachable.ts, sqlite/busy.ts), so every query, connection and transaction statement
 * of the store answers 503 `service_unavailable` for them and never the driver's text or a 500.
 */

/** The error as the store raises it. */
export type StoreErrorMap = (err: unknown) => unknown;

async function mapped<T>(map: StoreErrorMap, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw map(err);
  }
}

class MappedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly map: StoreErrorMap,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return mapped(this.map, () => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (err) {
      throw this.map(err);
    }
  }
}

const unwrap = (c: DatabaseConnection): DatabaseConnection => (c instanceof MappedConnection ? c.inner : c);

/** `inner` with every error it raises passed through `map`. */
export class MappedDriver implements Driver {
  /** The same connection object for a pooled client each time, so Kysely's bookkeeping holds. */
  private readonly wrapped = new WeakMap<DatabaseConnection, MappedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly map: StoreErrorMap,
  ) {}

  init(): Promise<void> {
    return mapped(this.map, () => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const c = await mapped(this.map, () => this.inner.acquireConnection());
    let m = this.wrapped.get(c);
    if (!m) {
      m = new MappedConnection(c, this.map);
      this.wrapped.set(c, m);
    }
    return m;
  }

  beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return mapped(this.map, () => this.inner.beginTransaction(unwrap(c), settings));
  }

  commitTransaction(c: DatabaseConnection): Promise<void> {
    return mapped(this.map, () => this.inner.commitTransaction(unwrap(c)));
  }

  rollbackTransaction(c: DatabaseConnection): Promise<void> {
    return mapped(this.map, () => this.inner.rollbackTransaction(unwrap(c)));
  }

  async savepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await mapped(this.map, async () => this.inner.savepoint?.(unwrap(c), name, compile));
  }

  async rollbackToSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await mapped(this.map, async () => this.inner.rollbackToSavepoint?.(unwrap(c), name, compile));
  }

  async releaseSavepoint(
    c: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await mapped(this.map, async () => this.inner.releaseSavepoint?.(unwrap(c), name, compile));
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(c));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

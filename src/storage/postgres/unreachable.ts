import { type Driver, PostgresDialect } from 'kysely';
import { StoreUnavailableError } from '../../core/errors.ts';
import { MappedDriver } from '../mapped-driver.ts';

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

/** Kysely's PostgreSQL dialect whose errors of an unreachable server are StoreUnavailableError. */
export class UnreachableMappingDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new MappedDriver(super.createDriver(), storeError);
  }
}

/**
 * The closed set of domain error codes. They carry no HTTP: each variant maps them to a status in
 * one table (src/http/error-status.ts). Expected outcomes (a missing batch, a denied rate limit) are
 * results, not errors; these are for requests the core refuses.
 */
export type DomainErrorCode =
  | 'invalid_api_key'
  | 'plan_required'
  | 'not_found'
  | 'invalid_parameter'
  | 'conflict'
  | 'file_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  /** The service is at capacity for this kind of work (e.g. the CoA reader's queue is full). */
  | 'service_unavailable'
  | 'internal_error';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Extra machine-readable detail safe to show a client (e.g. the offending parameter). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

export const notFound = (what: string, slug: string): DomainError =>
  new DomainError('not_found', `${what} '${slug}' does not exist.`);

export const invalidParameter = (parameter: string, reason: string): DomainError =>
  new DomainError('invalid_parameter', `Parameter '${parameter}' ${reason}`, { parameter });

/** What a 503 for an unreachable store tells the client to wait, in seconds. */
export const STORE_RETRY_AFTER_S = 3;

/**
 * The store could not be reached (PostgreSQL restarting, the connection refused or cut, no
 * connection within the pool's time limit): the request was not carried out, and may be retried
 * in a few seconds. The storage adapter raises it (storage/postgres/unreachable.ts); HTTP answers
 * 503 `service_unavailable` with `Retry-After`, and reads that need no store are served meanwhile
 * (core/catalog/freshness.ts).
 */
export class StoreUnavailableError extends DomainError {
  constructor(cause?: unknown, retryAfterSeconds = STORE_RETRY_AFTER_S) {
    super(
      'service_unavailable',
      'The database is unavailable for a moment, so this request could not be completed. Retry after the Retry-After seconds.',
      { retryAfterSeconds },
    );
    // For the logs only: the driver's text never reaches a client (the message above does).
    if (cause !== undefined) this.cause = cause;
  }
}

export const isStoreUnavailable = (e: unknown): e is StoreUnavailableError =>
  e instanceof StoreUnavailableError;

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

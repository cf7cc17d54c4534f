import type { DomainErrorCode } from '../core/errors.ts';

/**
 * Codes of errors the HTTP layer raises about the request as a message, before any route or use
 * case sees it (decision 0017). They are not domain errors: the core never raises them.
 */
export type ProtocolErrorCode = 'request_timeout' | 'headers_too_large';

/** Every code an error body can carry. */
export type ErrorCode = DomainErrorCode | ProtocolErrorCode;

/** The one mapping from error codes to HTTP statuses, shared by both variants and the admin API. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  invalid_api_key: 401,
  plan_required: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  file_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** Where keys come from: said in both 401 messages. */
const KEY_SOURCE =
  'Keys are created in the dashboard (/dashboard/keys) or by an operator with `purerank keys create ACCOUNT`; ask your account owner for one.';

/** A key was sent but is not a live key (unknown, revoked or malformed alike: decision 0006). */
export const INVALID_KEY_MESSAGE = `The API key is not valid. Send a live key as "Authorization: Bearer prk_live_…". ${KEY_SOURCE}`;

/** No Authorization header at all: said so, since that is the commonest first mistake. */
export const MISSING_KEY_MESSAGE = `The API key is not valid: the request has no Authorization header. Send a live key as "Authorization: Bearer prk_live_…". ${KEY_SOURCE}`;
export const INTERNAL_MESSAGE = 'Something went wrong on our side. The request id identifies it in our logs.';

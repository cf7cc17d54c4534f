import type { DomainErrorCode } from '../core/errors.ts';

/** The one mapping from domain codes to HTTP statuses, shared by both variants and the admin API. */
export const STATUS_OF: Record<DomainErrorCode, number> = {
  invalid_parameter: 400,
  invalid_api_key: 401,
  plan_required: 403,
  not_found: 404,
  conflict: 409,
  file_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
};

export const INVALID_KEY_MESSAGE =
  'The API key is not valid. Send a live key as "Authorization: Bearer prk_live_…".';
export const INTERNAL_MESSAGE = 'Something went wrong on our side. The request id identifies it in our logs.';

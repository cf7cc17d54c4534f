import { Type as T, type TSchema } from '@sinclair/typebox';

/** The documented error body (interface spec, "Errors"). */
export const ErrorBodySchema = T.Object(
  {
    error: T.Object({
      code: T.String({
        description: 'Machine-readable code, e.g. invalid_api_key, not_found, rate_limited.',
      }),
      message: T.String({ description: 'Human-readable text.' }),
      status: T.Integer({ description: 'Equals the HTTP status.' }),
      request_id: T.String({ description: 'Identifies the request in our logs; quote it to support.' }),
    }),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);

export const PillarsSchema = T.Object(
  {
    coa: T.Integer({ minimum: 0, maximum: 100 }),
    purity: T.Integer({ minimum: 0, maximum: 100 }),
    sentiment: T.Integer({ minimum: 0, maximum: 100 }),
    transparency: T.Integer({ minimum: 0, maximum: 100 }),
    experience: T.Integer({ minimum: 0, maximum: 100 }),
  },
  { description: 'The five sub-scores, 0..100 (docs/methodology.md).' },
);

/** A slug path parameter: lower case, as the lists give it (`BPC-157` is not `bpc-157`). */
const slugParam = (what: string) =>
  T.String({
    minLength: 1,
    maxLength: 200,
    description: `${what} slug, lower case, as the lists give it.`,
  });
export const VENDOR_SLUG = slugParam('Vendor');
export const PEPTIDE_SLUG = slugParam('Peptide');

/** Error responses every guarded route can give. */
export const commonErrors = (extra: Record<number, string> = {}): Record<number, TSchema> => {
  const out: Record<number, TSchema> = {};
  const all: Record<number, string> = {
    400: 'Invalid parameter (`invalid_parameter`).',
    401: 'Missing, malformed, unknown or revoked API key (`invalid_api_key`).',
    403: "The key's plan does not include this endpoint (`plan_required`).",
    408: 'The request did not arrive in time (`request_timeout`; decision 0017).',
    429: 'Over the rate limit (`rate_limited`); see `Retry-After`.',
    431: 'The request headers are too large (`headers_too_large`).',
    500: 'Internal failure (`internal_error`).',
    503: 'The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds.',
    ...extra,
  };
  for (const [status, description] of Object.entries(all)) {
    out[Number(status)] = { ...T.Ref(ErrorBodySchema), description } as TSchema;
  }
  return out;
};

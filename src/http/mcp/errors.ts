import type { FastifyBaseLogger } from 'fastify';
import { DomainError, type DomainErrorCode } from '../../core/errors.ts';
import { INTERNAL_MESSAGE, STATUS_OF } from '../error-status.ts';

/**
 * The REST error contract in MCP's two forms (docs/mcp.md, Errors):
 * - a refusal before a tool runs (plan, rate limit, invalid arguments) is a JSON-RPC error whose
 *   `message` is the REST message and whose `data` is the REST error object (plus `retry_after`);
 * - an error the tool's use case raises (not_found, invalid_parameter, file_too_large, …) is a tool
 *   result with `isError: true` whose text is the REST error body, as MCP asks of tool failures.
 * An invalid or missing key never gets this far: it is answered at the HTTP level (401 and the body).
 */

/** JSON-RPC error codes per REST code: -32602 is JSON-RPC's own "invalid params". */
const RPC_CODE: Partial<Record<DomainErrorCode, number>> = {
  invalid_parameter: -32602,
  invalid_api_key: -32001,
  plan_required: -32003,
  not_found: -32004,
  rate_limited: -32029,
  internal_error: -32603,
};

export interface RestError {
  code: DomainErrorCode;
  message: string;
  status: number;
  request_id: string;
  retry_after?: number;
}

export const restError = (
  code: DomainErrorCode,
  message: string,
  requestId: string,
  retryAfterS: number | null = null,
): RestError => ({
  code,
  message,
  status: STATUS_OF[code],
  request_id: requestId,
  ...(retryAfterS !== null ? { retry_after: retryAfterS } : {}),
});

/** A JSON-RPC error response to the request with this id. */
export const rpcError = (id: string | number | null, e: RestError) => ({
  jsonrpc: '2.0' as const,
  id,
  error: { code: RPC_CODE[e.code] ?? -32000, message: e.message, data: e },
});

/** The error's message with the REST parameter it names (details.parameter) called by the tool's argument name. */
function argumentNamed(err: DomainError, restNames: Readonly<Record<string, string>>): string {
  const parameter = err.details?.parameter;
  if (typeof parameter !== 'string' || !Object.hasOwn(restNames, parameter)) return err.message;
  return err.message.replace(`Parameter '${parameter}'`, `Parameter '${restNames[parameter]}'`);
}

/**
 * A failed tool call as MCP's tool error: the REST body as text. Anything that is not a domain
 * error is logged and answered as internal_error, never with its own message.
 */
export function toolError(
  err: unknown,
  requestId: string,
  log: FastifyBaseLogger,
  restNames: Readonly<Record<string, string>> = {},
) {
  let e: RestError;
  if (err instanceof DomainError) {
    const retry = err.details?.retryAfterSeconds;
    e = restError(
      err.code,
      argumentNamed(err, restNames),
      requestId,
      typeof retry === 'number' ? retry : null,
    );
  } else {
    log.error({ err }, 'mcp tool failed');
    e = restError('internal_error', INTERNAL_MESSAGE, requestId);
  }
  return { isError: true as const, content: [{ type: 'text' as const, text: JSON.stringify({ error: e }) }] };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../../core/accounts/plans.ts';
import type { AdmissionControl, AdmissionResult, Admitted, RateHeaders } from '../admission.ts';
import { sendError } from '../error-body.ts';
import { setRateHeaders } from '../guard.ts';
import type { AppServices } from '../services.ts';

/**
 * Who may use `/mcp`, decided by the one admission decision (http/admission.ts) under Variant A's
 * scope and policies: `/mcp` is Variant A spoken as MCP, so its calls share the key's hourly quota
 * with `/v1`.
 *
 * - Every HTTP request needs a valid key whose plan grants `read` (what `/v1` asks), checked before
 *   the body is read without counting anything (`peek`): otherwise the HTTP status and the documented
 *   error body, as REST answers (401 invalid_api_key, 403 plan_required).
 * - A `tools/call` of a known tool is one counted request (`count`), judged against that tool's
 *   access (verify_coa: enterprise); initialize, tools/list, resources/* and notifications are not
 *   counted.
 */
export const MCP_SCOPE = 'a';

/** Peeks the key: the caller, or null when the refusal was sent. */
export async function admitCaller(
  services: AppServices,
  admission: AdmissionControl,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Admitted | null> {
  const pending = services.freshness.check();
  if (pending) await pending;
  const result = await admission.admit(request.headers.authorization, MCP_SCOPE, 'read', 'peek');
  if (result.ok) return result;
  if (result.rate) setRateHeaders(reply, result.rate);
  sendError(request, reply, result.code, result.message);
  return null;
}

/** Counts one tool call against the key's Variant A quota, under the tool's access. */
export async function admitToolCall(
  admission: AdmissionControl,
  request: FastifyRequest,
  access: Access,
): Promise<AdmissionResult> {
  return admission.admit(request.headers.authorization, MCP_SCOPE, access, 'count');
}

/** The rate-limit headers, copied now: an admitted answer is the key's lane, updated in place later. */
export const rateNumbers = (rate: RateHeaders): RateHeaders => ({
  limitText: rate.limitText,
  remaining: rate.remaining,
  resetText: rate.resetText,
});

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError } from 'zod';
import { grantsOf } from '../../core/accounts/plans.ts';
import type { Principal } from '../../core/keys/model.ts';
import type { RateHeaders } from '../admission.ts';
import { coaUploadBudget } from '../coa-upload.ts';
import { sendError } from '../error-body.ts';
import { INTERNAL_MESSAGE } from '../error-status.ts';
import { setRateHeaders } from '../guard.ts';
import type { VariantContext } from '../variant-context.ts';
import { admitCaller, admitToolCall, rateNumbers } from './caller.ts';
import { restError, rpcError } from './errors.ts';
import { METHODOLOGY_URI } from './resources.ts';

export const MCP_PATH = '/mcp';

/** The SDK and the tools, imported once, on the first message (runtime.ts says why). */
let runtime: Promise<typeof import('./runtime.ts')> | null = null;
const loadRuntime = () => {
  runtime ??= import('./runtime.ts');
  return runtime;
};

/** A request body any MCP message but verify_coa's fits in; larger ones need the Enterprise plan. */
const SMALL_BODY_BYTES = 64 * 1024;
/** Framing around a verify_coa's base64 file: the JSON-RPC envelope and the other arguments. */
const ENVELOPE_BYTES = 16 * 1024;
/** A tool call that takes longer is abandoned (verify_coa's reader has tighter limits of its own). */
export const TOOL_CALL_TIMEOUT_MS = 60_000;

interface Caller {
  principal: Principal;
  rate: RateHeaders;
}

interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; task?: unknown; uri?: unknown };
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP (the official SDK), stateless: every POST
 * carries one JSON-RPC message and gets its answer as JSON; no session, no server-sent stream (GET
 * and DELETE answer 405, as the transport's specification allows). Keys, plans and limits are
 * Variant A's (caller.ts); the tools are thin over the core (tools/). docs/mcp.md.
 */
export function mcpEndpoint(ctx: VariantContext) {
  const { services, admission } = ctx;
  return async function plugin(app: FastifyInstance): Promise<void> {
    const maxBytes = services.config.coa.maxBytes;
    // verify_coa's file arrives base64-encoded: 4 characters per 3 bytes.
    const bodyLimit = Math.ceil(maxBytes / 3) * 4 + ENVELOPE_BYTES;
    // Large bodies share the CoA uploads' budget of bodies in memory (coa-upload.ts).
    const budget = coaUploadBudget(services);
    const callers = new WeakMap<FastifyRequest, Caller>();

    /** Before the body is read: the key and its plan, and room for a large body. */
    const gate = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
      const admitted = await admitCaller(services, admission, request, reply);
      if (!admitted) return reply;
      const principal = admitted.principal;
      callers.set(request, { principal, rate: rateNumbers(admitted) });
      // GET and DELETE carry no body to make room for.
      if (request.method !== 'POST') return;
      // Nothing here decodes a compressed body: a JSON body labelled gzip was read as plain JSON
      // (and counted), a really gzipped one failed as "not valid UTF-8". Refused before reading it.
      const encoding = String(request.headers['content-encoding'] ?? 'identity')
        .trim()
        .toLowerCase();
      if (encoding !== 'identity' && encoding !== '') {
        return reply
          .code(415)
          .send(
            rpcError(
              null,
              restError(
                'unsupported_media_type',
                'A Content-Encoding is not accepted: send the JSON-RPC message uncompressed.',
                request.id,
              ),
            ),
          );
      }
      const length = Number(request.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(length) && length <= SMALL_BODY_BYTES) return;
      if (!grantsOf(principal.plan).has('enterprise')) {
        return sendError(
          request,
          reply,
          'file_too_large',
          `An MCP request is at most ${SMALL_BODY_BYTES} bytes, with a Content-Length; only verify_coa (Enterprise plan) takes more.`,
        );
      }
      if (Number.isFinite(length) && length > bodyLimit) {
        return sendError(request, reply, 'file_too_large', `An MCP request is at most ${bodyLimit} bytes.`);
      }
      const release = budget.tryReserve(principal.accountId, Number.isFinite(length) ? length : bodyLimit);
      if (!release) {
        return sendError(
          request,
          reply,
          'service_unavailable',
          'Too many uploads are being read right now; retry in a few seconds.',
        );
      }
      reply.raw.once('close', release);
      return undefined;
    };

    app.post(MCP_PATH, { bodyLimit, onRequest: gate }, async (request, reply) => {
      const caller = callers.get(request);
      if (!caller) throw new Error('the MCP gate admitted a request without a caller');
      const raw = reply.raw;
      const body = request.body as JsonRpcRequest | JsonRpcRequest[] | string | undefined;
      const refuse = (
        status: 400 | 415,
        code: 'invalid_parameter' | 'unsupported_media_type',
        message: string,
      ) => reply.code(status).send(rpcError(null, restError(code, message, request.id)));
      const json = /^application\/json\b/i.test(String(request.headers['content-type'] ?? ''));
      // Text bodies (text/plain is parsed as a string) are not JSON-RPC, whatever they hold. (A JSON
      // string, `"hi"`, is also a string here: that one was sent as JSON, and is refused below.)
      if (typeof body === 'string' && !json && body !== '') {
        return refuse(415, 'unsupported_media_type', 'Send the JSON-RPC message as application/json.');
      }
      if (body === undefined || body === '') {
        return refuse(
          400,
          'invalid_parameter',
          'The request body is empty: POST one JSON-RPC message as application/json.',
        );
      }
      if (Array.isArray(body)) {
        return refuse(
          400,
          'invalid_parameter',
          'Send one JSON-RPC message per request: batches are not accepted.',
        );
      }
      if (typeof body !== 'object' || body === null) {
        return refuse(
          400,
          'invalid_parameter',
          `The body is JSON ${body === null ? 'null' : `of type ${typeof body}`}: send one JSON-RPC message, a JSON object.`,
        );
      }
      const { TOOLS, StreamableHTTPServerTransport, buildMcpServer, requestProblem } = await loadRuntime();
      let rate = caller.rate;
      // A request whose params do not fit its method: -32602 naming the field, not the SDK's
      // internal error, and not counted (no work was done).
      const problem = body.id !== undefined ? requestProblem(body) : null;
      // Tasks (MCP's long-running calls) need a session to poll: this endpoint is stateless.
      const taskAsked = body.method === 'tools/call' && body.params?.task !== undefined;
      /** A JSON-RPC error to this message in the REST words, with the quota as it now stands. */
      const answer = (code: 'invalid_parameter' | 'not_found', message: string) => {
        setRateHeaders(reply, rate);
        return reply.send(rpcError(body.id ?? null, restError(code, message, request.id)));
      };
      if (problem !== null || taskAsked) {
        return answer(
          'invalid_parameter',
          problem ??
            "Parameter 'params.task' is not supported: this endpoint is stateless and answers every call at once; call the tool without a task.",
        );
      }
      if (body.method === 'resources/read' && body.params?.uri !== METHODOLOGY_URI) {
        // The SDK's own answer doubles its prefix ("MCP error -32602: MCP error -32602: Resource …")
        // and carries no REST error: answered here, as an unknown tool is.
        return answer(
          'not_found',
          `There is no resource '${String(body.params?.uri).slice(0, 200)}'; resources/list names them: ${METHODOLOGY_URI}.`,
        );
      }
      // A call the SDK's transport will refuse (see transportRefuses) is handed to it uncounted: it
      // answers with its own JSON-RPC error (406, -32700) or, for a notification, 202 and nothing.
      const call = body.method === 'tools/call' && !transportRefuses(request, body);
      const tool = call ? TOOLS.get(String(body.params?.name)) : undefined;
      if (call && !tool) {
        // In the REST words, as every other refusal (the SDK's own answer is a bare text): no
        // work is done, so nothing is counted.
        return answer(
          'not_found',
          `There is no tool named '${String(body.params?.name).slice(0, 100)}'; tools/list names them: ${[...TOOLS.keys()].join(', ')}.`,
        );
      }
      if (tool) {
        const decided = await admitToolCall(admission, request, tool.access);
        if (!decided.ok) {
          if (decided.rate) setRateHeaders(reply, decided.rate);
          if (decided.retryAfterS !== null) reply.header('retry-after', decided.retryAfterS);
          return reply.send(
            rpcError(
              body.id ?? null,
              restError(decided.code, decided.message, request.id, decided.retryAfterS),
            ),
          );
        }
        rate = rateNumbers(decided);
        // Arguments are judged after the call is counted, as REST judges parameters after the guard.
        const parsed = tool.input.strict().safeParse(body.params?.arguments ?? {});
        if (!parsed.success) return answer('invalid_parameter', argumentsMessage(parsed.error));
      }
      // From here the SDK's transport writes the answer on the socket itself.
      reply.hijack();
      raw.setHeader('x-request-id', request.id);
      raw.setHeader('cache-control', 'no-store');
      raw.setHeader('x-ratelimit-limit', rate.limitText);
      raw.setHeader('x-ratelimit-remaining', rate.remaining);
      raw.setHeader('x-ratelimit-reset', rate.resetText);
      const done = new AbortController();
      const timer = setTimeout(() => done.abort(), TOOL_CALL_TIMEOUT_MS);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const server = buildMcpServer(
        { services, principal: caller.principal, signal: done.signal },
        request.id,
        request.log,
      );
      raw.once('close', () => {
        clearTimeout(timer);
        done.abort();
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, raw, body);
      } catch (err) {
        request.log.error({ err }, 'mcp transport failed');
        if (!raw.headersSent) {
          raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          raw.end(
            JSON.stringify(
              rpcError(body.id ?? null, restError('internal_error', INTERNAL_MESSAGE, request.id)),
            ),
          );
        } else raw.destroy();
      }
    });

    // Stateless: no server-sent stream to open and no session to end. MCP's transport asks for a
    // 405 here (its client then goes on without a stream); the body's status says the same.
    const notAllowed = async (request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send(
          rpcError(null, {
            ...restError(
              'invalid_parameter',
              'This MCP endpoint takes POST only: it is stateless, so POST one JSON-RPC message; there is no stream to GET and no session to DELETE.',
              request.id,
            ),
            status: 405,
          }),
        );
    app.get(MCP_PATH, { onRequest: gate }, notAllowed);
    app.delete(MCP_PATH, { onRequest: gate }, notAllowed);
    // Every other method is as wrong as GET and DELETE, and says so the same way (it was a 404).
    app.route({ method: ['PUT', 'PATCH', 'OPTIONS'], url: MCP_PATH, onRequest: gate, handler: notAllowed });
  };
}

/** The first problem zod found, in the REST words: `Parameter 'x' …`. */
/**
 * Whether the SDK's transport refuses the message before any tool runs: an `Accept` without both
 * `application/json` and `text/event-stream` (406), a message that is not JSON-RPC 2.0 (-32700),
 * or a notification (no `id`: 202, nothing run). Such a `tools/call` does no work and is not
 * counted; it used to be, so three malformed calls could use up a small hourly limit.
 */
function transportRefuses(request: FastifyRequest, body: JsonRpcRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return true;
  if (body.jsonrpc !== '2.0') return true;
  return typeof body.id !== 'string' && typeof body.id !== 'number';
}

function argumentsMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The arguments are invalid.';
  if (issue.code === 'unrecognized_keys')
    return `Parameter '${issue.keys[0]}' is not an argument of this tool.`;
  const name = issue.path.join('.') || 'arguments';
  return `Parameter '${name}' is invalid: ${issue.message}.`;
}

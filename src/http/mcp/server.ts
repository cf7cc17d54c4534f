import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError } from '../../core/errors.ts';
import { toolError } from './errors.ts';
import { registerResources } from './resources.ts';
import { TOOLS } from './tools/index.ts';
import type { ToolCall } from './tools/model.ts';

export const SERVER_INFO = { name: 'purerank', version: '1.0.0' };

const INSTRUCTIONS =
  'PureRank scores peptide vendors from lab evidence (CoAs), reviews and transparency. Use search to find ' +
  'vendor and peptide slugs, then get_vendor, rank_vendors, get_prices, lookup_batch and explain_score. ' +
  'verify_coa checks a CoA PDF (Enterprise plan). The methodology is the resource purerank://docs/methodology.';

/** The tool's answer, or service_unavailable once the call's signal aborts (its time limit, or the client left). */
function withinTime<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(tooSlow());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(tooSlow());
    signal.addEventListener('abort', stop, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', stop);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(e);
      },
    );
  });
}

const tooSlow = () =>
  new DomainError(
    'service_unavailable',
    'The tool call took longer than its time limit; retry in a few seconds.',
    {
      retryAfterSeconds: 2,
    },
  );

/**
 * One McpServer per HTTP request (stateless mode: no session, nothing kept between requests). Building
 * it registers seven tools and a resource; the zod schemas are built once, by the modules.
 */
export function buildMcpServer(call: ToolCall, requestId: string, log: FastifyBaseLogger): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS.values()) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: tool.access === 'read', openWorldHint: false },
      },
      async (args: unknown) => {
        try {
          const out = await withinTime(tool.run(args as never, call), call.signal);
          return { structuredContent: out, content: [{ type: 'text', text: JSON.stringify(out) }] };
        } catch (err) {
          return toolError(err, requestId, log, tool.restNames);
        }
      },
    );
  }
  registerResources(server);
  // The SDK declares `listChanged: true` for tools and resources as soon as one is registered. Here
  // the lists are fixed for the process's life and the endpoint is stateless (no stream to send a
  // notification on), so the server says it never announces a change.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyBaseLogger } from 'fastify';
import { toolError } from './errors.ts';
import { registerResources } from './resources.ts';
import { TOOLS } from './tools/index.ts';
import type { ToolCall } from './tools/model.ts';

export const SERVER_INFO = { name: 'purerank', version: '1.0.0' };

const INSTRUCTIONS =
  'PureRank scores peptide vendors from lab evidence (CoAs), reviews and transparency. Use search to find ' +
  'vendor and peptide slugs, then get_vendor, rank_vendors, get_prices, lookup_batch and explain_score. ' +
  'verify_coa checks a CoA PDF (Enterprise plan). The methodology is the resource purerank://docs/methodology.';

/**
 * One McpServer per HTTP request (stateless mode: no session, nothing kept between requests). Building
 * it registers seven tools and a resource, a few microseconds; the zod schemas are the modules' own.
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
          const out = await tool.run(args as never, call);
          return { structuredContent: out, content: [{ type: 'text', text: JSON.stringify(out) }] };
        } catch (err) {
          return toolError(err, requestId, log);
        }
      },
    );
  }
  registerResources(server);
  return server;
}

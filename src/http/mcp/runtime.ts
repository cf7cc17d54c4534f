/**
 * What `/mcp` needs to answer a message, loaded on its first request (index.ts): the SDK and the
 * tools' zod schemas add about 30 MB to a process's resident memory, which a service nobody asks
 * over MCP should not carry (measured: +32.5 MB at import; performance.md).
 */
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { requestProblem } from './request-check.ts';
export { buildMcpServer } from './server.ts';
export { TOOLS } from './tools/index.ts';

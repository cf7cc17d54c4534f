import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Dialect } from '../../support/databases.ts';
import { type CoaFixture, setupCoa } from '../coa/fixtures.ts';

/**
 * The CoA suites' registry (test/http/coa/fixtures.ts: vendors aurora, helix, acme; peptides
 * bpc-157, tb-500, semaglutide; approved batches NW-1001, MR-2002, BP-5005, HX-3003; pending
 * HX-4004) behind a real socket, and the SDK's own client to talk to it.
 */
export interface McpFixture extends CoaFixture {
  url: URL;
  /** A connected SDK client sending this key (initialize done). */
  connect(key?: string): Promise<Client>;
}

export async function setupMcp(dialect: Dialect): Promise<McpFixture> {
  const f = await setupCoa(dialect);
  await f.ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.ctx.app.server.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const clients: Client[] = [];
  const close = f.ctx.close;
  f.ctx.close = async () => {
    await Promise.all(clients.map((c) => c.close()));
    await close();
  };
  return {
    ...f,
    url,
    async connect(key = f.key) {
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      });
      const client = new Client({ name: 'purerank-test', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
  };
}

/** A JSON-RPC POST by hand, for what the SDK client would not send. */
export const post = (url: URL, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });

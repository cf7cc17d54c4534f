import type { AddressInfo } from 'node:net';
import { type Fixture, setupFixture } from '../http/variant-b/fixtures.ts';

/** The Variant B fixture catalog served on a real socket (port 0), for the client to talk to. */
export interface ClientServer extends Fixture {
  baseUrl: string;
  /** Statuses as they came off the wire, in order (before the client's retry and ETag layers). */
  wire: number[];
  /** A fetch that records into `wire`: pass it as the client's transport. */
  fetch: (request: Request) => Promise<Response>;
}

export async function startClientServer(): Promise<ClientServer> {
  const f = await setupFixture('sqlite');
  await f.ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.ctx.app.server.address() as AddressInfo;
  const wire: number[] = [];
  return {
    ...f,
    baseUrl: `http://127.0.0.1:${port}`,
    wire,
    fetch: async (request) => {
      const res = await globalThis.fetch(request);
      wire.push(res.status);
      return res;
    },
  };
}

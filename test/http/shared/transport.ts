import type { TestContext } from '../../support/context.ts';
import { PipelinedClient, rawGet } from '../../support/pipelined-client.ts';
import type { ResponseLike } from '../variant-b/fixtures.ts';

/** The two request paths every shared endpoint check runs over. */
export type TransportKind = 'inject' | 'socket';

/** One answer, whichever path gave it; readable by the fixtures' checks (expectError, expectOk…). */
export interface Answer extends ResponseLike {
  headers: Record<string, string | undefined>;
  /**
   * Over a socket: whether the fast path answered (the server's `fastPath.served` grew by this
   * request; requests are sent one at a time, so nothing else moves it). In-process: null, since
   * inject() never reaches the fast path.
   */
  fast: boolean | null;
}

export interface Transport {
  kind: TransportKind;
  /** A GET of `url` with exactly these headers. */
  get(url: string, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

const answer = (
  statusCode: number,
  headers: Record<string, string | undefined>,
  body: string,
  fast: boolean | null,
): Answer => ({ statusCode, headers, body, json: () => JSON.parse(body), fast });

/** In-process: Fastify's inject(), which takes the framework path (the guard) every time. */
function injectTransport(ctx: TestContext): Transport {
  return {
    kind: 'inject',
    async get(url, headers = {}) {
      const res = await ctx.app.inject({ method: 'GET', url, headers });
      const flat: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(res.headers))
        flat[name] = Array.isArray(value)
          ? value.join(', ')
          : value === undefined
            ? undefined
            : String(value);
      return answer(res.statusCode, flat, res.body, null);
    },
    close: async () => {},
  };
}

/**
 * Over a real socket to the listening server, whose request handler runs the fast path before
 * Fastify. Each request is written as raw bytes on its own connection, so headers arrive exactly as
 * written (fetch would trim or refuse some of the odd Authorization values the checks send) and one
 * answer can never be mistaken for another's.
 */
async function socketTransport(ctx: TestContext): Promise<Transport> {
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(base).port);
  return {
    kind: 'socket',
    async get(url, headers = {}) {
      const client = await PipelinedClient.open(port);
      try {
        const before = ctx.app.fastPath.served;
        const [res] = await client.send([rawGet(url, headers)]);
        const served = ctx.app.fastPath.served - before;
        if (served > 1) throw new Error(`fastPath.served moved by ${served} for one request: not sequential`);
        return answer(res!.status, res!.headers, res!.body, served === 1);
      } finally {
        client.close();
      }
    },
    // The server is closed with the context (ctx.close() closes the app).
    close: async () => {},
  };
}

export async function openTransport(kind: TransportKind, ctx: TestContext): Promise<Transport> {
  return kind === 'inject' ? injectTransport(ctx) : socketTransport(ctx);
}

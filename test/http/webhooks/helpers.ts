import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type Config, DEFAULTS } from '../../../src/config/config.ts';
import { bearer, createTestContext, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';

export const A = '/v1';
export const HEX24 = /^[0-9a-f]{24}$/;
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** `whsec_` + base64; the decoded key must be at least 24 bytes (the issue). */
export const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export const secretBytes = (secret: string): number =>
  Buffer.from(secret.slice('whsec_'.length), 'base64').length;

/** Webhook configuration for tests: receivers are local http servers on 127.0.0.1. */
export const privateUrls = (over: Partial<Config['webhooks']> = {}): Partial<Config> => ({
  webhooks: { ...DEFAULTS.webhooks, allowPrivateUrls: true, ...over },
});

export interface Client {
  key: string;
  call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

/** A key of the given plan and a way to call /v1 with it (JSON bodies). */
export async function clientFor(
  ctx: TestContext,
  plan: 'enterprise' | 'pro' | 'free' | 'custom',
  account?: string,
): Promise<Client> {
  const key = await ctx.keyFor(plan, account);
  return {
    key,
    call: (method, path, body, headers = {}) =>
      ctx.app.inject({
        method,
        url: `${A}${path}`,
        headers: {
          ...bearer(key),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
  };
}

export interface Setup {
  ctx: TestContext;
  /** Enterprise account "acct-a". */
  a: Client;
  /** Enterprise account "acct-b". */
  b: Client;
}

export async function setup(dialect: Dialect, config: Partial<Config> = privateUrls()): Promise<Setup> {
  // The manual clock starts at the real time: receivers verify `webhook-timestamp` against their
  // own clock (5 minutes of tolerance, as Standard Webhooks libraries do).
  const ctx = await createTestContext(dialect, { config, now: Date.now() });
  return {
    ctx,
    a: await clientFor(ctx, 'enterprise', 'acct-a'),
    b: await clientFor(ctx, 'enterprise', 'acct-b'),
  };
}

/** Asserts the documented error body and returns its message. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): string {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toEqual({
    code,
    message: expect.any(String),
    status,
    request_id: res.headers['x-request-id'],
  });
  return body.error.message as string;
}

/**
 * Asserts a 400 `invalid_parameter` whose message names `field`: "Parameter 'events' …", or an
 * element of it, "Parameter 'events.1' …".
 */
export function expectInvalid(res: LightMyRequestResponse, field: string): string {
  const message = expectError(res, 400, 'invalid_parameter');
  expect(message).toMatch(
    new RegExp(`^Parameter '${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\.\\d+)?' `),
  );
  return message;
}

export function expectRateHeaders(res: LightMyRequestResponse): void {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(res.headers[h], `${h} on ${res.statusCode}`).toMatch(/^\d+$/);
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real webhook receiver on 127.0.0.1: records every request (raw body as text) and answers
 * with the status set in `answer` (204 by default).
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: { status: number; headers?: Record<string, string> } = { status: 204 };
  private server!: Server;
  url = '';

  static async start(path = '/hook'): Promise<Receiver> {
    const r = new Receiver();
    r.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        r.received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(r.answer.status, r.answer.headers ?? {});
        res.end();
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}${path}`;
    return r;
  }

  last(): Received {
    const last = this.received.at(-1);
    if (!last) throw new Error('the receiver got nothing');
    return last;
  }

  async close(): Promise<void> {
    // The sender keeps connections alive: close them, or close() waits for their idle timeout.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Creates an endpoint and returns its answer's body (with the secret). */
export async function createEndpoint(
  c: Client,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string } & Record<string, unknown>> {
  const res = await c.call('POST', '/webhooks', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

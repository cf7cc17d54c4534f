import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type McpFixture, post, setupMcp } from './fixtures.ts';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** `/mcp` answers with status 200 so far, from the per-route metrics. */
async function mcpOk(f: McpFixture): Promise<number> {
  const metrics = await f.ctx.app.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const line = metrics.body
    .split('\n')
    .find(
      (l) =>
        l.startsWith('purerank_http_requests_total{') &&
        l.includes('route="/mcp"') &&
        l.includes('status="200"'),
    );
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

/** The JSON-RPC error a refused call rejects with (the REST error object in `data`). */
async function refusal(p: Promise<unknown>): Promise<McpError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(McpError);
  return e as McpError;
}

describe.each(DIALECTS)('/mcp: keys, plans, limits and arguments (%s)', (dialect) => {
  let f: McpFixture;
  beforeAll(async () => {
    f = await setupMcp(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it('no key: HTTP 401 with the documented body, and the SDK client fails to connect', async () => {
    const r = await post(f.url, INIT);
    expect(r.status).toBe(401);
    const body = (await r.json()) as { error: { code: string; message: string; status: number } };
    expect(body.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(body.error.message).toContain('no Authorization header');
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('an unknown key: 401 invalid_api_key through the SDK client', async () => {
    const e = await f.connect('prk_live_000000000000000000000000000000000000000').then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StreamableHTTPError);
    expect((e as StreamableHTTPError).code).toBe(401);
    expect((e as Error).message).toContain('invalid_api_key');
  });

  it('a free plan: HTTP 403 plan_required, as /v1 answers it', async () => {
    const key = await f.ctx.keyFor('free');
    const r = await post(f.url, INIT, { authorization: `Bearer ${key}` });
    expect(r.status).toBe(403);
    const body = (await r.json()) as { error: { code: string; message: string } };
    const rest = await f.ctx.app.inject({ url: '/v1/vendors', headers: { authorization: `Bearer ${key}` } });
    expect(body.error.code).toBe('plan_required');
    expect(body.error.message).toBe((rest.json() as { error: { message: string } }).error.message);
  });

  it('verify_coa on a Pro key: a JSON-RPC plan_required error; its reads work', async () => {
    const client = await f.connect(await f.ctx.keyFor('pro'));
    const e = await refusal(
      client.callTool({ name: 'verify_coa', arguments: { pdf_base64: 'JVBERi0=', peptide: 'bpc-157' } }),
    );
    expect(e.code).toBe(-32003);
    expect(e.data).toMatchObject({ code: 'plan_required', status: 403 });
    const ok = await client.callTool({ name: 'search', arguments: { query: 'aurora' } });
    expect(ok.isError).toBeFalsy();
  });

  it('rate limit: each tools/call counts one of the hourly limit; initialize and lists do not', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 2 });
    const client: Client = await f.connect(key);
    await client.listTools();
    await client.listResources();
    for (let i = 0; i < 2; i++) {
      const r = await client.callTool({ name: 'get_vendor', arguments: { vendor: 'aurora' } });
      expect(r.isError).toBeFalsy();
    }
    const e = await refusal(client.callTool({ name: 'get_vendor', arguments: { vendor: 'aurora' } }));
    expect(e.code).toBe(-32029);
    const data = e.data as { code: string; status: number; retry_after: number; message: string };
    expect(data).toMatchObject({ code: 'rate_limited', status: 429 });
    // The next UTC hour from T0 (12:00:00) is an hour away.
    expect(data.retry_after).toBe(3600);
    expect(data.message).toContain('2 requests per hour');
    // The same quota as /v1: it is spent there too.
    const rest = await f.ctx.app.inject({ url: '/v1/vendors', headers: { authorization: `Bearer ${key}` } });
    expect(rest.statusCode).toBe(429);
    // Not counted: still answered.
    expect((await client.listTools()).tools.length).toBe(7);
    // And by hand: the rate headers and Retry-After are on the answer.
    const r = await post(
      f.url,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search', arguments: { query: 'x' } } },
      { authorization: `Bearer ${key}` },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('retry-after')).toBe('3600');
    expect(r.headers.get('x-ratelimit-limit')).toBe('2');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(((await r.json()) as { error: { data: { code: string } } }).error.data.code).toBe('rate_limited');
  });

  it('invalid arguments: a JSON-RPC invalid_parameter naming the argument (counted, as REST counts a 400)', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 5 });
    const client = await f.connect(key);
    const e = await refusal(client.callTool({ name: 'search', arguments: { query: '' } }));
    expect(e.code).toBe(-32602);
    expect(e.data).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect((e.data as { message: string }).message).toMatch(/^Parameter 'query' is invalid/);
    const extra = await refusal(
      client.callTool({ name: 'get_vendor', arguments: { vendor: 'aurora', color: 'red' } }),
    );
    expect((extra.data as { message: string }).message).toBe(
      "Parameter 'color' is not an argument of this tool.",
    );
    const r = await post(
      f.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: {} } },
      { authorization: `Bearer ${key}` },
    );
    // Three calls counted of five.
    expect(r.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('an unknown tool: a JSON-RPC not_found in the REST words, naming the tools, not counted', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 3 });
    const client = await f.connect(key);
    const e = await refusal(client.callTool({ name: 'nope', arguments: {} }));
    expect(e.data).toMatchObject({ code: 'not_found', status: 404 });
    expect((e.data as { message: string }).message).toMatch(
      /^There is no tool named 'nope'; tools\/list names them: .*get_vendor/,
    );
    const r = await post(
      f.url,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      { authorization: `Bearer ${key}` },
    );
    expect(r.headers.get('x-ratelimit-remaining')).toBe('3');
  });

  it('an answer by hand: JSON, no session id, the request id and the quota, nothing counted for a list', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 7 });
    const auth = { authorization: `Bearer ${key}`, 'x-request-id': 'mcp-by-hand-1' };
    const r = await post(f.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, auth);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.headers.get('mcp-session-id')).toBeNull();
    expect(r.headers.get('x-request-id')).toBe('mcp-by-hand-1');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-ratelimit-limit')).toBe('7');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('7');
    const body = (await r.json()) as { id: number; result: { tools: unknown[] } };
    expect(body.id).toBe(5);
    expect(body.result.tools.length).toBe(7);
    // Counted once in the per-route metrics, though the transport writes the answer itself.
    const before = await mcpOk(f);
    await post(f.url, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, auth);
    expect(await mcpOk(f)).toBe(before + 1);
  });

  it('GET and DELETE answer 405 (stateless), a batch 400', async () => {
    const auth = { authorization: `Bearer ${f.key}` };
    expect((await fetch(f.url, { headers: { ...auth, accept: 'text/event-stream' } })).status).toBe(405);
    const deleted = await fetch(f.url, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(405);
    // The body says what the status line says.
    expect(((await deleted.json()) as { error: { data: { status: number } } }).error.data.status).toBe(405);
    const pro = { authorization: `Bearer ${await f.ctx.keyFor('pro')}` };
    expect((await fetch(f.url, { headers: { ...pro, accept: 'text/event-stream' } })).status).toBe(405);
    const r = await post(f.url, [INIT], auth);
    expect(r.status).toBe(400);
  });

  it('PUT, PATCH and OPTIONS answer 405 with Allow: POST too (not 404)', async () => {
    const auth = { authorization: `Bearer ${f.key}` };
    for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
      const r = await fetch(f.url, { method, headers: auth });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      const body = (await r.json()) as { error: { code: number; data: { status: number; message: string } } };
      expect(body.error.data.status).toBe(405);
      expect(body.error.data.message).toMatch(/takes POST only/);
    }
  });

  it('a text body is 415 and an empty one says it is empty', async () => {
    const auth = { authorization: `Bearer ${f.key}` };
    const text = await fetch(f.url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INIT),
    });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { error: { data: { code: string } } }).error.data.code).toBe(
      'unsupported_media_type',
    );
    const empty = await fetch(f.url, { method: 'POST', headers: { ...auth, accept: 'application/json' } });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toMatch(/body is empty/);
  });

  it('params that do not fit the method are -32602 naming the field, not an internal error, and not counted', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 4 });
    const auth = { authorization: `Bearer ${key}` };
    const cases: [unknown, RegExp][] = [
      [{ jsonrpc: '2.0', id: 1, method: 'initialize' }, /^Parameter 'params' is invalid for initialize/],
      [{ jsonrpc: '2.0', id: 2, method: 'tools/call' }, /^Parameter 'params' is invalid for tools\/call/],
      [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: [1, 2] }, /^Parameter 'params' is invalid/],
      [
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: { a: 1 } } },
        /^Parameter 'params\.name' is invalid/,
      ],
      [
        {
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'search', arguments: { query: 'bpc' }, task: { ttl: 60_000 } },
        },
        /^Parameter 'params\.task' is not supported/,
      ],
    ];
    for (const [message, expected] of cases) {
      const r = await post(f.url, message, auth);
      expect(r.status).toBe(200);
      const body = (await r.json()) as {
        id: unknown;
        error: { code: number; data: { code: string; message: string } };
      };
      expect(body.error.code).toBe(-32602);
      expect(body.error.data.code).toBe('invalid_parameter');
      expect(body.error.data.message).toMatch(expected);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('4');
    }
  });

  it('a tools/call the transport refuses (Accept, not JSON-RPC 2.0, a notification) is not counted', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 3 });
    const auth = { authorization: `Bearer ${key}` };
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'bpc' } },
    };
    const jsonOnly = await post(f.url, call, { ...auth, accept: 'application/json' });
    expect(jsonOnly.status).toBe(406);
    const { jsonrpc: _v, ...noVersion } = call;
    expect((await post(f.url, noVersion, auth)).status).toBe(400);
    const { id: _id, ...notification } = call;
    expect((await post(f.url, notification, auth)).status).toBe(202);
    // None of them ran the tool: the whole limit is left for the call that does.
    const r = await post(f.url, call, auth);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { result?: unknown }).result).toBeDefined();
    expect(r.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('a Content-Encoding is refused (415) before the body is read, not run as plain JSON', async () => {
    const key = await f.ctx.keyFor('custom', undefined, { rateLimitA: 3 });
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'bpc' } },
    };
    for (const encoding of ['gzip', 'br', 'identity, gzip']) {
      const r = await post(f.url, call, { authorization: `Bearer ${key}`, 'content-encoding': encoding });
      expect(r.status, encoding).toBe(415);
      const body = (await r.json()) as { error: { data: { code: string; message: string } } };
      expect(body.error.data).toMatchObject({ code: 'unsupported_media_type' });
      expect(body.error.data.message).toMatch(/Content-Encoding/);
    }
    const ok = await post(f.url, call, { authorization: `Bearer ${key}`, 'content-encoding': 'identity' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('JSON that is not an object says what it is; an unknown resource is not_found in the REST words', async () => {
    const auth = { authorization: `Bearer ${f.key}` };
    for (const [value, expected] of [
      ['hi', /JSON of type string/],
      [42, /JSON of type number/],
      [null, /JSON null/],
    ] as const) {
      const r = await post(f.url, value, auth);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: { data: { message: string } } }).error.data.message).toMatch(
        expected,
      );
    }
    const r = await post(
      f.url,
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///etc/passwd' } },
      auth,
    );
    const body = (await r.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe('not_found');
    expect(body.error.message).toBe(
      "There is no resource 'file:///etc/passwd'; resources/list names them: purerank://docs/methodology.",
    );
  });

  it("a use case's error names the tool's argument, not the REST parameter", async () => {
    const client = await f.connect();
    const blank = (await client.callTool({ name: 'search', arguments: { query: '   ' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(blank.isError).toBe(true);
    expect(JSON.parse(blank.content[0]!.text).error.message).toMatch(/^Parameter 'query' /);
    const batch = (await client.callTool({ name: 'lookup_batch', arguments: { batch_id: '  ' } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(batch.isError).toBe(true);
    expect(JSON.parse(batch.content[0]!.text).error.message).toMatch(/^Parameter 'batch_id' /);
  });

  it('a body over 64 KB needs the Enterprise plan (413 before it is read)', async () => {
    const key = await f.ctx.keyFor('pro');
    const big = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'x'.repeat(70_000) } },
    };
    const r = await post(f.url, big, { authorization: `Bearer ${key}` });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('file_too_large');
  });
});

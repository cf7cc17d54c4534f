import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../../support/context.ts';
import { expectErrorAnswer, portOf, rawRequest } from './raw-socket.ts';

/*
 * Every answer the service gives carries the documented error body, including those to requests
 * Node's HTTP parser refuses before Fastify sees them (decision 0017). Over a real socket with raw
 * bytes: inject() never reaches the parser. Nothing here touches the database, so one dialect.
 */
describe('protocol errors get the documented body (real socket)', () => {
  let ctx: TestContext;
  let port: number;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    key = await ctx.keyFor('enterprise');
    port = portOf(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => ctx?.close());

  const get = (target: string, extra = '') =>
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n${extra}\r\n`;

  it('a 60 KB header → 431 headers_too_large, and the connection closes', async () => {
    const answer = await rawRequest(port, get('/v1/vendors', `X-Big: ${'a'.repeat(60_000)}\r\n`));
    expectErrorAnswer(answer, 431, 'headers_too_large');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it.each([
    ['a raw space in the path', 'GET /v1/ven dors HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a NUL in the path', 'GET /v1/ven\0dors HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control character in the path', 'GET /v1/vendors\x01 HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'a Content-Length that is not a number',
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ],
    [
      'two different Content-Lengths',
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a missing Host', 'GET /v1/vendors HTTP/1.1\r\n\r\n'],
    ['two Host headers (RFC 9112 §3.2)', 'GET /v1/vendors HTTP/1.1\r\nHost: x\r\nhost: y\r\n\r\n'],
    ['a method that is not HTTP', 'BREW /v1/vendors HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['not HTTP at all', 'GARBAGE\r\n\r\n'],
    ['a header without a colon', 'GET /v1/vendors HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n'],
    ['an unknown HTTP version', 'GET /v1/vendors HTTP/7.3\r\nHost: x\r\n\r\n'],
  ])('%s → 400 invalid_parameter with the documented body', async (_name, bytes) => {
    const answer = await rawRequest(port, bytes);
    expectErrorAnswer(answer, 400, 'invalid_parameter');
    expect(answer.body).not.toMatch(/statusCode|Bad Request"/);
  });

  it('a malformed chunked body on an authenticated write → 400 with the documented body', async () => {
    const answer = await rawRequest(
      port,
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n',
    );
    expectErrorAnswer(answer, 400, 'invalid_parameter');
  });

  it.each([
    ['PROPFIND', 404, 'not_found'],
    ['OPTIONS', 404, 'not_found'],
    ['DELETE', 404, 'not_found'],
    ['TRACE', 404, 'not_found'],
  ])('%s /v1/vendors → %i %s with the documented body', async (method, status, code) => {
    const answer = await rawRequest(
      port,
      `${method} /v1/vendors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    expectErrorAnswer(answer, status, code);
  });

  it('a body over the limit → 413, an unknown Content-Type → 415, bad JSON → 400', async () => {
    const admin = `Authorization: Bearer ${ADMIN_TOKEN}\r\n`;
    const big = await rawRequest(
      port,
      `POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\n` +
        `Content-Length: ${50 * 1024 * 1024}\r\n\r\n{`,
    );
    expectErrorAnswer(big, 413, 'file_too_large');
    const xml = await rawRequest(
      port,
      `POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: text/xml\r\nContent-Length: 4\r\n\r\n<a/>`,
    );
    expectErrorAnswer(xml, 415, 'unsupported_media_type');
    const json = await rawRequest(
      port,
      `POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\n${admin}Content-Type: application/json\r\nContent-Length: 3\r\n\r\n{x}`,
    );
    expectErrorAnswer(json, 400, 'invalid_parameter');
  });

  it('a malformed percent-encoding in the path → 400 with the documented body', async () => {
    expectErrorAnswer(await rawRequest(port, get('/api/v1/vendors/%E0%A4%A')), 400, 'invalid_parameter');
  });

  it('CONNECT (a proxy tunnel) → 404 not_found with the documented body, not a silent close', async () => {
    const answer = await rawRequest(port, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: x\r\n\r\n');
    expectErrorAnswer(answer, 404, 'not_found');
  });

  it('an Expect other than 100-continue is ignored (no bare 417)', async () => {
    const answer = await rawRequest(port, get('/v1/vendors', 'Expect: bogus\r\n'));
    expect(answer.status, answer.body).toBe(200);
    const noKey = await rawRequest(port, 'GET /v1/vendors HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n');
    expectErrorAnswer(noKey, 401, 'invalid_api_key');
  });

  it('HTTP/1.0 needs no Host', async () => {
    const answer = await rawRequest(port, `GET /v1/vendors HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(answer.status).toBe(200);
  });
});

describe('while the server closes (real socket)', () => {
  it('a request on an open connection → 503 service_unavailable with the documented body', async () => {
    const ctx = await createTestContext('sqlite');
    const key = await ctx.keyFor('enterprise');
    const port = portOf(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
    const net = await import('node:net');
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    // Half a request: the connection is busy, so closing the server does not drop it.
    socket.write(`GET /v1/vendors HTTP/1.1\r\nHost: x\r\n`);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const ended = new Promise((r) => socket.once('close', r));
    const closing = ctx.close();
    await new Promise((r) => setTimeout(r, 100));
    socket.write(`Authorization: Bearer ${key}\r\n\r\n`);
    await ended;
    await closing;
    const text = Buffer.concat(chunks).toString();
    expect(text.startsWith('HTTP/1.1 503')).toBe(true);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({
      error: {
        code: 'service_unavailable',
        message: expect.any(String),
        status: 503,
        request_id: expect.any(String),
      },
    });
  });
});

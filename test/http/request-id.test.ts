import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedRequestId, REQUEST_ID_MAX } from '../../src/http/request-id.ts';
import { bearer, createTestContext, type TestContext } from '../support/context.ts';
import { expectErrorAnswer, portOf, rawRequest } from './hardening/raw-socket.ts';

/** What the service makes itself: a per-process prefix and a counter. */
const OWN_ID = /^[0-9a-f]{12}-[0-9a-z]{6,}$/;

const FIXTURE = [
  {
    type: 'vendor',
    slug: 'apex',
    name: 'Apex',
    location: 'Canada',
    verified: true,
    listingPlan: 'premium',
    website: 'https://apex.example',
  },
];

/** Incoming ids that are taken over as they are. */
const WELL_FORMED = [
  'a',
  'req-1',
  '0f1e2d3c4b5a69788796a5b4c3d2e1f0', // nginx's $request_id
  '123e4567-e89b-12d3-a456-426614174000', // a UUID
  'edge:eu-1.node_7:000042',
  'x'.repeat(REQUEST_ID_MAX),
];

/** Incoming ids that are ignored (a fresh id is made), as header values inject() can carry. */
const HOSTILE: [string, string][] = [
  ['empty', ''],
  ['too long', 'x'.repeat(REQUEST_ID_MAX + 1)],
  ['a space', 'req 1'],
  ['a repeated header joined by a comma', 'a, b'],
  ['markup and a path', '../../<script>'],
  ['non-ASCII', 'réq-1'],
  ['a quote', 'req"1'],
  ['a tab', 'req\t1'],
];

describe('acceptedRequestId', () => {
  it.each(WELL_FORMED)('takes %s', (id) => expect(acceptedRequestId(id)).toBe(id));
  it.each(HOSTILE)('ignores one with %s', (_, id) => expect(acceptedRequestId(id)).toBeUndefined());
  it('ignores CR, LF, NUL, DEL and a missing or repeated header', () => {
    for (const id of ['a\r\nx-evil: 1', 'a\nb', 'a\rb', 'a\u0000b', 'a\u007fb', '\u{1F600}'])
      expect(acceptedRequestId(id)).toBeUndefined();
    expect(acceptedRequestId(undefined)).toBeUndefined();
    expect(acceptedRequestId(['a', 'b'])).toBeUndefined();
  });
});

describe('X-Request-Id from the client or a proxy', () => {
  let ctx: TestContext;
  let key: string;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    expect((await ctx.load(FIXTURE)).ok).toBe(true);
    key = await ctx.keyFor('enterprise');
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx?.close());

  describe('through the framework (inject)', () => {
    it.each(WELL_FORMED)('a success and an error carry %s', async (id) => {
      const ok = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-request-id']).toBe(id);
      const missing = await ctx.app.inject({
        url: '/api/v1/vendors/nope',
        headers: { ...bearer(key), 'x-request-id': id },
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-request-id']).toBe(id);
      expect(missing.json().error.request_id).toBe(id);
    });

    it.each(HOSTILE)('one with %s is replaced by a fresh id', async (_, id) => {
      const res = await ctx.app.inject({
        url: '/api/v1/vendors/nope',
        headers: { ...bearer(key), 'x-request-id': id },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-request-id']).toMatch(OWN_ID);
      expect(res.json().error.request_id).toBe(res.headers['x-request-id']);
    });

    it('without one, every answer gets a distinct fresh id', async () => {
      const a = await ctx.app.inject({ url: '/healthz' });
      const b = await ctx.app.inject({ url: '/healthz' });
      expect(a.headers['x-request-id']).toMatch(OWN_ID);
      expect(b.headers['x-request-id']).toMatch(OWN_ID);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });
  });

  describe('over a real socket', () => {
    const get = (url: string, id?: string) =>
      fetch(`${base}${url}`, {
        headers: { ...bearer(key), ...(id === undefined ? {} : { 'x-request-id': id }) },
      });

    it('the fast path echoes a well-formed id and replaces a hostile one', async () => {
      await (await get('/api/v1/vendors')).text(); // fills the cache through the framework
      const before = ctx.app.fastPath.served;
      let id = '';
      // A repeat takes the fast path (one more try in case a data check sends it to the framework).
      for (let i = 0; i < 4 && ctx.app.fastPath.served === before; i++) {
        id = `fast-${i}`;
        const res = await get('/api/v1/vendors', id);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-request-id')).toBe(id);
        await res.text();
      }
      expect(ctx.app.fastPath.served).toBe(before + 1);
      for (const [, hostile] of HOSTILE.filter(([, v]) => /^[\x20-\x7e]*$/.test(v))) {
        const served = ctx.app.fastPath.served;
        const res = await get('/api/v1/vendors', hostile);
        expect(res.status).toBe(200);
        expect(ctx.app.fastPath.served).toBe(served + 1);
        expect(res.headers.get('x-request-id')).toMatch(OWN_ID);
        await res.text();
      }
    });

    it('an error from the framework carries the id in its header and body', async () => {
      const res = await get('/api/v1/vendors/nope', 'sock-err-1');
      expect(res.status).toBe(404);
      expect(res.headers.get('x-request-id')).toBe('sock-err-1');
      expect(((await res.json()) as { error: { request_id: string } }).error.request_id).toBe('sock-err-1');
    });

    it('an error answered before the framework (no Host) carries it too', async () => {
      const answer = await rawRequest(portOf(base), 'GET /healthz HTTP/1.1\r\nX-Request-Id: door-1\r\n\r\n');
      expectErrorAnswer(answer, 400, 'invalid_parameter');
      expect(answer.headers['x-request-id']).toBe('door-1');
    });

    it('raw hostile bytes never reach the answer', async () => {
      const port = portOf(base);
      const head = (value: Buffer) =>
        Buffer.concat([
          Buffer.from('GET /api/v1/vendors/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n'),
          Buffer.from(`Authorization: Bearer ${key}\r\nX-Request-Id: `),
          value,
          Buffer.from('\r\n\r\n'),
        ]);
      // UTF-8 bytes (obs-text to HTTP): parsed, ignored.
      const utf8 = await rawRequest(port, head(Buffer.from('réq-1', 'utf8')));
      expectErrorAnswer(utf8, 404, 'not_found');
      expect(utf8.headers['x-request-id']).toMatch(OWN_ID);
      // An empty value and one 129 characters long: ignored.
      for (const value of ['', 'y'.repeat(REQUEST_ID_MAX + 1)]) {
        const answer = await rawRequest(port, head(Buffer.from(value)));
        expectErrorAnswer(answer, 404, 'not_found');
        expect(answer.headers['x-request-id']).toMatch(OWN_ID);
      }
      // A bare CR or LF inside the value: the parser refuses the request; the answer has a fresh id.
      for (const value of ['a\rInjected: 1', 'a\nInjected: 1']) {
        const answer = await rawRequest(port, head(Buffer.from(value)));
        expectErrorAnswer(answer, 400, 'invalid_parameter');
        expect(answer.headers['x-request-id']).toMatch(OWN_ID);
        expect(answer.headers.injected).toBeUndefined();
      }
      // Two headers: Node joins them with a comma, which no id contains.
      const two = await rawRequest(
        port,
        `GET /api/v1/vendors/nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\nX-Request-Id: a\r\nX-Request-Id: b\r\n\r\n`,
      );
      expectErrorAnswer(two, 404, 'not_found');
      expect(two.headers['x-request-id']).toMatch(OWN_ID);
    });
  });
});

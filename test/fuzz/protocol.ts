import fc from 'fast-check';
import { goodAuth } from './auth.ts';
import { serialize, type WireRequest } from './raw-http.ts';
import type { ApiModel } from './spec.ts';
import type { FuzzWorld } from './target.ts';
import { encoded } from './values.ts';

/** A documented read or write as a well-formed request, the starting point each protocol case breaks. */
function baseRequest(api: ApiModel, world: FuzzWorld): fc.Arbitrary<WireRequest> {
  return fc.constantFrom(...api.operations).map((op) => ({
    method: op.method,
    target: op.path.replace(/\{\w+\}/g, () => encoded(world.vendors[0]!)),
    headers: [
      ...goodAuth(op.prefix, world),
      ...(op.method === 'GET' ? [] : ([['X-Operator', 'fuzz']] as [string, string][])),
    ],
    ...(op.body
      ? {
          body: '{}',
          headers: [
            ...goodAuth(op.prefix, world),
            ['X-Operator', 'fuzz'],
            ['Content-Type', 'application/json'],
          ],
        }
      : {}),
  }));
}

type Mutation = (r: WireRequest) => WireRequest;

const intoTarget =
  (insert: string): Mutation =>
  (r) => ({ ...r, target: `${r.target.split('?')[0]}${insert}x` });
const header =
  (name: string, value: string): Mutation =>
  (r) => ({ ...r, headers: [...r.headers, [name, value]] });
const headers =
  (...hs: [string, string][]): Mutation =>
  (r) => ({ ...r, headers: [...r.headers, ...hs] });

/** Each breaks one rule of HTTP/1.1 framing or syntax; the server must still answer with its error body. */
const MUTATIONS: Record<string, Mutation> = {
  'raw space in target': intoTarget(' '),
  'raw NUL in target': intoTarget('\u0000'),
  'raw tab in target': intoTarget('\t'),
  'raw DEL in target': intoTarget('\u007f'),
  'raw non-ASCII in target': intoTarget('\u00c3\u00a9'),
  'raw quote and brackets in target': intoTarget('"<>{}|^`'),
  'fragment in target': intoTarget('#frag'),
  'very long target': (r) => ({ ...r, target: `${r.target}?pad=${'a'.repeat(20_000)}` }),
  'absolute-form target': (r) => ({ ...r, target: `http://127.0.0.1${r.target}` }),
  'asterisk target': (r) => ({ ...r, target: '*' }),
  'empty target': (r) => ({ ...r, target: '' }),
  'target without slash': (r) => ({ ...r, target: r.target.slice(1) }),
  'lower-case method': (r) => ({ ...r, method: r.method.toLowerCase() }),
  'unknown method': (r) => ({ ...r, method: 'FROB' }),
  'CONNECT method': (r) => ({ ...r, method: 'CONNECT', target: '127.0.0.1:443' }),
  'HTTP/1.0 without Host': (r) => ({ ...r, version: 'HTTP/1.0', omitHost: true }),
  'HTTP/1.1 without Host': (r) => ({ ...r, omitHost: true }),
  'HTTP/2.0 version': (r) => ({ ...r, version: 'HTTP/2.0' }),
  'HTTP/1.2 version': (r) => ({ ...r, version: 'HTTP/1.2' }),
  'lower-case version': (r) => ({ ...r, version: 'http/1.1' }),
  'garbage version': (r) => ({ ...r, version: 'HTTP/1.1x' }),
  'two Host headers': header('Host', 'other.example'),
  'Host with garbage': (r) => ({ ...r, omitHost: true, headers: [['Host', 'a b/c:99999'], ...r.headers] }),
  'Content-Length not a number': header('Content-Length', 'abc'),
  'Content-Length negative': header('Content-Length', '-1'),
  'Content-Length huge': header('Content-Length', '99999999999999999999'),
  'Content-Length list': header('Content-Length', '0, 1'),
  'two Content-Length headers': headers(['Content-Length', '0'], ['Content-Length', '5']),
  'Content-Length and Transfer-Encoding': headers(['Content-Length', '3'], ['Transfer-Encoding', 'chunked']),
  'unknown Transfer-Encoding': header('Transfer-Encoding', 'gzip'),
  'bad chunk size': (r) => ({
    ...r,
    headers: [...r.headers, ['Transfer-Encoding', 'chunked']],
    body: 'zz\r\n{}\r\n0\r\n\r\n',
  }),
  'good chunked body': (r) => ({
    ...r,
    headers: [...r.headers, ['Transfer-Encoding', 'chunked']],
    body: '2\r\n{}\r\n0\r\n\r\n',
  }),
  'header without colon': (r) => ({
    ...r,
    raw: serialize(r, '127.0.0.1').replace('\r\n\r\n', '\r\nNoColonHere\r\n\r\n'),
  }),
  'space in header name': header('Bad Name', 'x'),
  'empty header name': header('', 'x'),
  'separator in header name': header('X(y)', '1'),
  'NUL in header value': header('X-Note', 'a\u0000b'),
  'CR in header value': header('X-Note', 'a\rb'),
  'obsolete line folding': header('X-Note', 'a\r\n folded'),
  '60 KB header': header('X-Pad', 'p'.repeat(60_000)),
  '20 KB header': header('X-Pad', 'p'.repeat(20_000)),
  '3000 headers': (r) => ({
    ...r,
    headers: [...r.headers, ...Array.from({ length: 3000 }, (_, i): [string, string] => [`X-H${i}`, 'v'])],
  }),
  'Expect 100-continue': header('Expect', '100-continue'),
  'Expect garbage': header('Expect', 'the-unexpected'),
  'Upgrade to websocket': headers(['Connection', 'Upgrade'], ['Upgrade', 'websocket']),
  'Upgrade to h2c': headers(
    ['Connection', 'Upgrade, HTTP2-Settings'],
    ['Upgrade', 'h2c'],
    ['HTTP2-Settings', 'AAMAAABkAAQCAAAAAAIAAAAA'],
  ),
  'client x-request-id': header('X-Request-Id', '../../<script>\u00ff'),
  'Accept-Encoding gzip': header('Accept-Encoding', 'gzip, br, *;q=0'),
  'Accept nothing JSON': header('Accept', 'text/html'),
  'If-None-Match garbage': header('If-None-Match', '"x", W/"y", *, ,,'),
  'Range header': header('Range', 'bytes=0-1,5-'),
};

/** Requests whose framing has no HTTP shape at all. */
const RAW = [
  'GARBAGE\r\n\r\n',
  '\u0000\u0001\u0002\r\n\r\n',
  'GET /v1/vendors HTTP/1.1\nHost: x\n\n', // bare LF line endings
  'GET /v1/vendors\r\n\r\n', // HTTP/0.9 style, no version
  'GET  /v1/vendors HTTP/1.1\r\nHost: x\r\n\r\n', // two spaces
  ' GET /v1/vendors HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /v1/vendors HTTP/1.1\r\nHost: x\r\n : x\r\n\r\n',
  '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003\r\n\r\n', // a TLS ClientHello on the plain port
  'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', // the HTTP/2 preface
];

/** One malformed request: a documented request broken by one mutation, or bytes with no HTTP shape. */
export function protocolCase(api: ApiModel, world: FuzzWorld): fc.Arbitrary<WireRequest> {
  const names = Object.keys(MUTATIONS);
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .tuple(baseRequest(api, world), fc.constantFrom(...names))
        .map(([r, m]) => ({ ...MUTATIONS[m]!(r), note: m })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...RAW)
        .map((raw) => ({ method: 'RAW', target: '', headers: [], raw, note: 'no HTTP shape' })),
    },
  );
}

import fc from 'fast-check';
import { authHeaders, goodAuth } from './auth.ts';
import { type BodyCase, bodyFor } from './bodies.ts';
import { protocolCase } from './protocol.ts';
import { utf8, type WireRequest } from './raw-http.ts';
import type { ApiModel, Operation, Parameter } from './spec.ts';
import type { FuzzWorld } from './target.ts';
import { encoded, oddlyEncoded, paramText } from './values.ts';

type Header = [string, string];

/** The request families of the suite; each is a property of its own. */
export const VARIANTS = [
  'conforming',
  'parameters',
  'encodings',
  'auth',
  'methods',
  'bodies',
  'protocol',
  'twice',
] as const;
export type Variant = (typeof VARIANTS)[number];

/** What each family sends, for docs/reliability.md and test names. */
export const VARIANT_DESCRIPTIONS: Record<Variant, string> = {
  conforming:
    'requests the documents allow, with a valid credential: every 2xx body is checked against its schema',
  parameters:
    'path and query values in and out of range, odd number spellings, repeated, missing and unknown parameters',
  encodings:
    'path and query values percent-encoded oddly: invalid sequences, overlong UTF-8, NUL, raw spaces and bytes',
  auth: 'every shape of Authorization header and credential on every operation, huge headers included',
  methods: 'every method on every path, unknown paths beside documented ones, trailing slashes, HEAD',
  bodies:
    'bodies for the operator routes: valid-ish, garbage JSON, wrong content types; bodies where none belong',
  protocol:
    'malformed HTTP: raw spaces and NULs in the target, bad framing, missing Host, odd versions and methods',
  twice: 'public reads sent twice (the fast path answers the second when it can): both answers must agree',
};

const isHeader = (p: Parameter) => p.in === 'header';

/** Fills an operation's path with already-encoded segments and appends the query pairs. */
function target(op: Operation, segments: Record<string, string>, query: [string, string | null][]): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, n: string) => segments[n] ?? '');
  const q = query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  return query.length ? `${path}?${q}` : path;
}

function withBody(headers: Header[], body: BodyCase | undefined): { headers: Header[]; body?: string } {
  if (!body) return { headers };
  return {
    headers: body.contentType === undefined ? headers : [...headers, ['Content-Type', body.contentType]],
    body: body.body,
  };
}

/** The x-operator header of the admin writes: usually right, sometimes missing, empty or odd. */
function operatorHeader(op: Operation, valid: boolean): fc.Arbitrary<Header[]> {
  if (!op.params.some(isHeader)) return fc.constant([]);
  const good = fc.constantFrom<Header[]>([['X-Operator', 'fuzz']], [['x-operator', 'ops team']]);
  if (valid) return good;
  return fc.oneof(
    { weight: 3, arbitrary: good },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Header[]>(
        [],
        [['X-Operator', '']],
        [['X-Operator', 'x'.repeat(101)]],
        [['X-Operator', utf8('opérateur')]],
        [
          ['X-Operator', 'a'],
          ['X-Operator', 'b'],
        ],
      ),
    },
  );
}

/** Query pairs for an operation: each parameter absent, once, twice, empty or valueless; plus strangers. */
function queryPairs(
  op: Operation,
  world: FuzzWorld,
  valid: boolean,
  encode: (text: string) => fc.Arbitrary<string>,
): fc.Arbitrary<[string, string | null][]> {
  const params = op.params.filter((p) => p.in === 'query');
  const one = (p: Parameter): fc.Arbitrary<[string, string | null][]> => {
    const value = paramText(p, world, valid).chain(encode);
    const present = value.map((v): [string, string | null][] => [[p.name, v]]);
    const none = fc.constant<[string, string | null][]>([]);
    if (valid) return p.required ? present : fc.oneof(none, present);
    return fc.oneof(
      { weight: 4, arbitrary: present },
      { weight: 2, arbitrary: none },
      {
        weight: 1,
        arbitrary: fc.tuple(value, value).map(([a, b]): [string, string | null][] => [
          [p.name, a],
          [p.name, b],
        ]),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom<[string, string | null][]>(
          [[p.name, '']],
          [[p.name, null]],
          [[p.name.toUpperCase(), '1']],
        ),
      },
    );
  };
  const strangers = valid
    ? fc.constant<[string, string][]>([])
    : fc.array(
        fc.tuple(
          fc.constantFrom('foo', 'callback', '__proto__', 'limit[]', 'q', 'page', ''),
          fc.constantFrom('1', '', 'x'),
        ),
        { maxLength: 2 },
      );
  return fc
    .tuple(fc.tuple(...params.map(one)), strangers)
    .map(([lists, extra]) => [...lists.flat(), ...extra]);
}

/** One request for `op`, its values encoded by `encode`. */
function forOperation(
  op: Operation,
  world: FuzzWorld,
  opts: {
    valid: boolean;
    encode: (text: string) => fc.Arbitrary<string>;
    auth: fc.Arbitrary<Header[]>;
    validBody: boolean;
  },
): fc.Arbitrary<WireRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const segments = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, paramText(p, world, opts.valid).chain(opts.encode)])),
  );
  return fc
    .record({
      segments,
      query: queryPairs(op, world, opts.valid, opts.encode),
      auth: opts.auth,
      operator: operatorHeader(op, opts.valid),
      body: op.body ? bodyFor(op.body, world, opts.validBody) : fc.constant(undefined),
    })
    .map(({ segments, query, auth, operator, body }) => ({
      method: op.method,
      target: target(op, segments, query),
      ...withBody([...auth, ...operator], body),
    }));
}

/** Requests of one family, drawn from the operations of the served documents. */
export function requests(variant: Variant, api: ApiModel, world: FuzzWorld): fc.Arbitrary<WireRequest> {
  const ops = api.operations;
  const plain = (t: string) => fc.constant(encoded(t));
  const good = (op: Operation) => fc.constant(goodAuth(op.prefix, world));
  // One arbitrary per operation, built once: building them per draw costs more than the request.
  const each = (pick: Operation[], make: (op: Operation) => fc.Arbitrary<WireRequest>) =>
    fc.oneof(...pick.map(make));
  switch (variant) {
    case 'conforming':
      return each(ops, (op) =>
        forOperation(op, world, { valid: true, encode: plain, auth: good(op), validBody: true }),
      );
    case 'parameters':
      return each(ops, (op) =>
        forOperation(op, world, { valid: false, encode: plain, auth: good(op), validBody: true }),
      );
    case 'encodings': {
      const odd = (t: string) =>
        fc.oneof({ weight: 1, arbitrary: plain(t) }, { weight: 3, arbitrary: oddlyEncoded(t) });
      return each(ops, (op) =>
        forOperation(op, world, { valid: false, encode: odd, auth: good(op), validBody: true }),
      );
    }
    case 'auth': {
      const auth = authHeaders(world);
      return each(ops, (op) =>
        forOperation(op, world, { valid: true, encode: plain, auth, validBody: true }),
      );
    }
    case 'bodies': {
      const writes = ops.filter((op) => op.body || op.method !== 'GET');
      const stray = bodyFor(undefined, world, false);
      return fc.oneof(
        {
          weight: 4,
          arbitrary: each(writes, (op) =>
            forOperation(op, world, { valid: false, encode: plain, auth: good(op), validBody: false }),
          ),
        },
        {
          // A body where none belongs: a GET or a bodiless write with JSON attached.
          weight: 1,
          arbitrary: each(ops, (op) =>
            fc
              .tuple(
                forOperation(op, world, { valid: true, encode: plain, auth: good(op), validBody: true }),
                stray,
              )
              .map(([req, body]) => ({
                ...req,
                ...withBody(
                  req.headers.filter(([n]) => !/content-type/i.test(n)),
                  body ?? { body: '{}' },
                ),
              })),
          ),
        },
      );
    }
    case 'methods':
      return methodCase(api, world);
    case 'protocol':
      return protocolCase(api, world);
    case 'twice': {
      const reads = ops.filter((op) => op.method === 'GET' && op.prefix !== '/admin/v1');
      const auth = fc.oneof(
        { weight: 3, arbitrary: fc.constant(goodAuth('/v1', world)) },
        authHeaders(world),
      );
      return fc
        .oneof(
          each(reads, (op) => forOperation(op, world, { valid: true, encode: plain, auth, validBody: true })),
          each(reads, (op) =>
            forOperation(op, world, { valid: false, encode: plain, auth, validBody: true }),
          ),
        )
        .map((req) => ({ ...req, repeat: true }));
    }
  }
}

const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'PURGE',
  'LINK',
  'QUERY',
];

/** Any method on documented paths, and documented methods on paths beside the documented ones. */
function methodCase(api: ApiModel, world: FuzzWorld): fc.Arbitrary<WireRequest> {
  const valid = fc.oneof(
    ...api.operations.map((op) =>
      forOperation(op, world, {
        valid: true,
        encode: (t) => fc.constant(encoded(t)),
        auth: fc.constant(goodAuth(op.prefix, world)),
        validBody: true,
      }),
    ),
  );
  const paths = fc.oneof(
    valid.map((r) => r.target),
    valid.map((r) => `${r.target.split('?')[0]}/`),
    valid.map((r) => `${r.target.split('?')[0]}/extra`),
    valid.map((r) => r.target.toUpperCase()),
    valid.map((r) => r.target.replace(/^\/(admin\/v1|api\/v1|v1)/, '/$1/')),
    fc.constantFrom(
      '/',
      '/v1',
      '/v1/',
      '/api',
      '/api/v1',
      '/admin',
      '/admin/v1',
      '/v2/vendors',
      '/api/v2/vendors',
      '/favicon.ico',
      '/robots.txt',
      '/.env',
      '/docs',
      '/docs/',
      '/healthz',
      '/v1/openapi.json',
      '/admin/v1/openapi.json',
      '/v1/../api/v1/vendors',
      '//v1/vendors',
      '/v1//vendors',
    ),
  );
  return fc
    .record({
      method: fc.constantFrom(...METHODS),
      path: paths,
      body: fc.option(fc.constant('{}'), { nil: undefined }),
    })
    .map(({ method, path, body }) => ({
      method,
      target: path,
      ...withBody(
        goodAuth(/^\/admin/i.test(path) ? '/admin/v1' : '/v1', world),
        body === undefined ? undefined : { contentType: 'application/json', body },
      ),
    }));
}

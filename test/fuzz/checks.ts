import { fromUtf8, header, type WireRequest, type WireResponse } from './raw-http.ts';
import type { ApiModel, Operation } from './spec.ts';

/** One broken promise of the contract, named so that equal failures group into one class. */
export interface Problem {
  /** e.g. `5xx`, `error-body`, `leak`, `schema`, `no-answer`. */
  kind: string;
  /** Where: the operation reached, or what the request was when no operation was. */
  where: string;
  detail: string;
}

/** Routes the service serves outside the OpenAPI documents; their 2xx bodies are not JSON API bodies. */
const UNDOCUMENTED_OK = /^\/(?:healthz|readyz|docs(?:\/|$)|(?:v1|api\/v1|admin\/v1)\/openapi\.json)/;

/**
 * Things no body may contain: a stack frame, a source path, a driver's or the database's words.
 * Each is reported only when the request did not carry the same text (a 404 may quote a slug).
 */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\bat (?:async )?[\w$.<>[\] ]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)|(?:\n|\\n)\s+at \S/],
  ['source path', /(?:\/work\/|\/src\/|\/node_modules\/|file:\/\/|[\w-]+\.(?:ts|js|mjs|cjs):\d+)/],
  [
    'database text',
    /SQLITE_|SqliteError|better-sqlite3|datatype mismatch|no such (?:table|column)|constraint failed|syntax error at or near|violates [\w ]+ constraint|relation \\?"|\b(?:select|insert into|update|delete from) \\?"|kysely/i,
  ],
  [
    'runtime error',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError): |Cannot read propert|is not a function|undefined is not/,
  ],
];

const ERROR_KEYS = ['code', 'message', 'status', 'request_id'];
const IMPORT_REJECTED_KEYS = [...ERROR_KEYS, 'error_count', 'lines'];

/** Everything the contract promises about one answer; an empty list means it held. */
export function checkResponse(api: ApiModel, req: WireRequest, res: WireResponse): Problem[] {
  const op = req.raw === undefined ? api.match(req.method, req.target) : undefined;
  const where = placeOf(api, req);
  const problems: Problem[] = [];
  const fail = (kind: string, detail: string) => problems.push({ kind, where, detail });

  if (res.status === 0) {
    fail('no-answer', `${res.failure ?? 'no status line'} after ${Math.round(res.ms)} ms`);
    return problems;
  }
  if (res.status >= 500) fail('5xx', `answered ${res.status}: ${res.body.slice(0, 200)}`);

  const requestText = fromUtf8(serializeForLeaks(req));
  const text = fromUtf8(res.body);
  for (const [name, pattern] of LEAKS) {
    const m = pattern.exec(text);
    if (m && !requestText.includes(m[0])) fail('leak', `${name} in the body: …${around(text, m.index)}…`);
  }

  const requestId = header(res, 'x-request-id');
  const bodyless = req.method === 'HEAD' || res.status === 304 || res.status === 204;
  if (res.status >= 400) {
    if (!requestId) fail('error-body', `${res.status} without an x-request-id header`);
    // A protocol error is the server's, not the operation's: only the common error body applies.
    if (!bodyless) problems.push(...errorBodyProblems(api, req.note ? undefined : op, res, where, requestId));
  } else if (res.status >= 200 && res.status < 300 && !bodyless) {
    const path = req.target.replace(/^https?:\/\/[^/]*/i, '').split(/[?#]/)[0]!;
    if (!op) {
      if (!UNDOCUMENTED_OK.test(path)) fail('undocumented-2xx', `${res.status} for a path no document lists`);
    } else {
      const json = parseJson(text);
      if (json === undefined) fail('schema', `${res.status} body is not JSON: ${text.slice(0, 120)}`);
      else {
        const error = api.validate(op, res.status, json);
        if (error) fail('schema', `${res.status}: ${error}`);
      }
      const loose = looseInteger(op, req.target);
      if (loose) fail('loose-integer', `${res.status} for ${loose}`);
    }
  }
  return merged(problems);
}

const DECIMAL = /^-?[0-9]+$/;
const INT32 = 2 ** 31;

/**
 * Integer query parameters take decimal digits (an optional minus), once, within the documented
 * range and 32 bits, and nothing else (issue [5], decision 0017): a 2xx for anything else is a
 * failure. Returns the offending `name=value`, if any.
 */
function looseInteger(op: Operation, target: string): string | null {
  const query = target.split('#')[0]!.split('?').slice(1).join('?');
  const pairs = query
    ? query.split('&').map((kv) => kv.split('=').map(decodeQuery) as [string, string?])
    : [];
  for (const p of op.params) {
    if (p.in !== 'query' || p.schema.type !== 'integer') continue;
    const given = pairs.filter(([k]) => k === p.name);
    if (given.length === 0) continue;
    if (given.length > 1) return `${p.name} given ${given.length} times`;
    const text = given[0]![1] ?? '';
    const min = Math.max(-INT32, typeof p.schema.minimum === 'number' ? p.schema.minimum : -INT32);
    const max = Math.min(INT32 - 1, typeof p.schema.maximum === 'number' ? p.schema.maximum : INT32 - 1);
    if (!DECIMAL.test(text) || Number(text) < min || Number(text) > max)
      return `${p.name}=${JSON.stringify(text)}`;
  }
  return null;
}

/** Query decoding as a form parser does it: '+' is a space; a bad escape stays as it is. */
function decodeQuery(s: string): string {
  const spaced = s.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** One problem per kind and request: the details of one broken answer belong to one failure class. */
function merged(problems: Problem[]): Problem[] {
  const byKind = new Map<string, Problem>();
  for (const p of problems) {
    const seen = byKind.get(p.kind);
    if (seen) seen.detail += `; ${p.detail}`;
    else byKind.set(p.kind, { ...p });
  }
  return [...byKind.values()];
}

function errorBodyProblems(
  api: ApiModel,
  op: Operation | undefined,
  res: WireResponse,
  where: string,
  requestId: string | undefined,
): Problem[] {
  const out: Problem[] = [];
  const fail = (detail: string) => out.push({ kind: 'error-body', where, detail });
  const type = header(res, 'content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) fail(`${res.status} with content-type '${type}'`);
  const body = parseJson(fromUtf8(res.body));
  if (!isObject(body) || !isObject(body.error)) {
    fail(`${res.status} body is not {"error":{…}}: ${JSON.stringify(res.body.slice(0, 160))}`);
    return out;
  }
  const e = body.error;
  // POST /admin/v1/import documents two more fields on its 400 (the lines it rejects); every other error is exact.
  const allowed =
    op?.label === 'POST /admin/v1/import' && res.status === 400 ? IMPORT_REJECTED_KEYS : ERROR_KEYS;
  const extra = [
    ...Object.keys(body).filter((k) => k !== 'error'),
    ...Object.keys(e).filter((k) => !allowed.includes(k)),
  ];
  if (extra.length) fail(`${res.status} body has undocumented fields: ${extra.join(', ')}`);
  const documented = op ? api.validate(op, res.status, body) : null;
  if (typeof e.code !== 'string' || !/^[a-z_]+$/.test(e.code))
    fail(`${res.status} error.code is ${str(e.code)}`);
  if (typeof e.message !== 'string' || !e.message) fail(`${res.status} error.message is ${str(e.message)}`);
  if (e.status !== res.status) fail(`HTTP ${res.status} but error.status is ${str(e.status)}`);
  if (typeof e.request_id !== 'string' || !e.request_id)
    fail(`${res.status} error.request_id is ${str(e.request_id)}`);
  else if (requestId && e.request_id !== requestId)
    fail(`error.request_id ${e.request_id} differs from x-request-id ${requestId}`);
  // An error status the operation does not list is not a failure by itself; a listed one must match its schema.
  if (documented && !documented.startsWith('status ')) fail(`${res.status} body: ${documented}`);
  return out;
}

/** Where a request goes: its operation, its protocol case, or its prefix when it reaches no operation. */
export function placeOf(api: ApiModel, req: WireRequest): string {
  if (req.note) return `protocol: ${req.note}`;
  const op = req.raw === undefined ? api.match(req.method, req.target) : undefined;
  return op?.label ?? describe(req);
}

/** A short name for a request that reached no documented operation (protocol cases, unknown routes). */
export function describe(req: WireRequest): string {
  if (req.raw !== undefined) return `raw: ${req.raw.slice(0, 24).replace(/[^\x21-\x7e]/g, '·')}`;
  const path = req.target.split('?')[0]!;
  const prefix = /^\/(?:admin\/v1|api\/v1|v1)(?=\/|$)/.exec(path)?.[0] ?? '(other)';
  return `${req.method} ${prefix}/… (no operation)`;
}

/** The request as text, plain and percent-decoded, to tell an echo of the input from a leak. */
function serializeForLeaks(req: WireRequest): string {
  const bytes =
    req.raw ?? [req.target, ...req.headers.map(([n, v]) => `${n}: ${v}`), req.body ?? ''].join('\n');
  const decoded = bytes.replace(/%([0-9a-f]{2})/gi, (_, h: string) =>
    String.fromCharCode(Number.parseInt(h, 16)),
  );
  return [bytes, decoded, decoded.replaceAll('+', ' ')].join('\n');
}

const parseJson = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown) => JSON.stringify(x) ?? 'absent';
const around = (s: string, i: number) => s.slice(Math.max(0, i - 40), i + 60);

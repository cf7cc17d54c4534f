/**
 * The `webhooks` scenario's receiver: a child process of the bench (IPC), so that the bench's own
 * work (wrk bookkeeping, polling) never delays an answer and its CPU is its own. It stands in for
 * every customer's server: one `node:http` listener, one path per endpoint (`/hooks/<n>`), and it
 * answers every POST with 204 as soon as the body has arrived — a fast receiver, so what is measured
 * is the sender.
 *
 * It counts what arrives per endpoint path and per `webhook-id`: the first arrival of each expected
 * (path, event) pair, duplicates (the same pair again: at-least-once allows them, the bench reports
 * them) and anything it was not told to expect. A sample of deliveries (the first per path, then one
 * in `verifyEvery`) is checked with the `standardwebhooks` package, an independent implementation
 * of the signature, and its body against the documented shape `{id, type, created, data}`.
 *
 * Protocol (IPC): the receiver sends {kind: 'listening', port}. The bench sends one `expect` order,
 * (answered with `ready`), then `stats` requests (answered with a `stats` message, which says when
 * the last expected pair arrived, timed here at the arrival itself).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface ExpectOrder {
  kind: 'expect';
  /** One entry per endpoint: its path, its signing secret and the event ids it must receive. */
  endpoints: { path: string; secret: string; eventIds: string[] }[];
  /** Verify the signature and body of one delivery in this many (and the first of each path). */
  verifyEvery: number;
}

export interface ReceiverStats {
  kind: 'stats';
  /** Expected (path, event) pairs. */
  expected: number;
  /** Expected pairs received at least once. */
  distinct: number;
  /** Requests for a pair already received. */
  duplicates: number;
  /** Most times one pair arrived. */
  maxCopies: number;
  /** POSTs for a pair that was not expected (unknown path or event id), and a few examples. */
  unexpected: number;
  unexpectedExamples: string[];
  /** Requests that were not a POST with a webhook-id header. */
  malformed: number;
  /** Requests in all. */
  requests: number;
  /** Distinct pairs received, per path. */
  perPath: Record<string, number>;
  /** Signature and shape checks: done, failed, and the first failure. */
  verified: number;
  verifyFailed: number;
  verifyFailure: string | null;
  /** Epoch ms of the first and latest request, and of the arrival that completed the set. */
  firstAtMs: number | null;
  lastAtMs: number | null;
  completeAtMs: number | null;
  /** First arrivals of expected pairs per `bucketMs` since `baseMs` (epoch ms, when the order came). */
  baseMs: number;
  bucketMs: number;
  timeline: number[];
  /** TCP connections the sender opened in all, and the most open at once (its concurrency, with keep-alive). */
  connections: number;
  maxOpenConnections: number;
  /** CPU time of this process since the order came, ms. */
  cpuMs: number;
}

const BUCKET_MS = 100;
const KEEP_EXAMPLES = 5;

interface Expected {
  /** Index of the endpoint (path) each expected event id belongs to. */
  endpointOf: Map<string, number>;
  /** Times each event id arrived at its endpoint, by its position in `index`. */
  index: Map<string, number>;
  copies: Uint16Array;
  paths: Map<string, number>;
  hooks: Webhook[];
  perPath: number[];
  verifyEvery: number;
  total: number;
}

let expected: Expected | null = null;
const s = {
  distinct: 0,
  duplicates: 0,
  maxCopies: 0,
  unexpected: 0,
  unexpectedExamples: [] as string[],
  malformed: 0,
  requests: 0,
  verified: 0,
  verifyFailed: 0,
  verifyFailure: null as string | null,
  firstAtMs: null as number | null,
  lastAtMs: null as number | null,
  completeAtMs: null as number | null,
  baseMs: Date.now(),
  timeline: [] as number[],
  connections: 0,
  open: 0,
  maxOpen: 0,
  cpu0: process.cpuUsage(),
};
const sampledPaths = new Set<number>();

function verify(hook: Webhook, body: Buffer, headers: IncomingMessage['headers'], id: string): void {
  try {
    hook.verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const keys = Object.keys(parsed).sort().join(',');
    if (keys !== 'created,data,id,type') throw new Error(`body has the fields ${keys}`);
    if (parsed.id !== id) throw new Error(`body id ${String(parsed.id)} is not webhook-id ${id}`);
    if (!Number.isInteger(parsed.created)) throw new Error('created is not whole Unix seconds');
    s.verified++;
  } catch (e) {
    s.verifyFailed++;
    s.verifyFailure ??= `${id}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function arrived(path: string, id: string, body: Buffer | null, headers: IncomingMessage['headers']) {
  const now = Date.now();
  s.firstAtMs ??= now;
  s.lastAtMs = now;
  const x = expected;
  const endpoint = x?.paths.get(path);
  const at = x?.index.get(id);
  if (!x || endpoint === undefined || at === undefined || x.endpointOf.get(id) !== endpoint) {
    s.unexpected++;
    if (s.unexpectedExamples.length < KEEP_EXAMPLES) s.unexpectedExamples.push(`${path} ${id}`);
    return;
  }
  if (body !== null) verify(x.hooks[endpoint]!, body, headers, id);
  const copies = ++x.copies[at]!;
  if (copies > 1) {
    s.duplicates++;
    s.maxCopies = Math.max(s.maxCopies, copies);
    return;
  }
  s.distinct++;
  s.maxCopies = Math.max(s.maxCopies, 1);
  x.perPath[endpoint]!++;
  const bucket = Math.floor((now - s.baseMs) / BUCKET_MS);
  while (s.timeline.length <= bucket) s.timeline.push(0);
  s.timeline[bucket]!++;
  if (s.distinct === x.total) s.completeAtMs = now;
}

const server = createServer((req, res) => {
  s.requests++;
  const id = req.headers['webhook-id'];
  const path = req.url ?? '';
  const answer = (status: number) => {
    res.writeHead(status, { 'content-length': 0 });
    res.end();
  };
  if (req.method !== 'POST' || typeof id !== 'string') {
    s.malformed++;
    req.resume();
    req.once('end', () => answer(400));
    return;
  }
  // Only sampled deliveries keep their body; the rest is read and dropped (the sender still sends it).
  const endpoint = expected?.paths.get(path);
  const sample =
    endpoint !== undefined &&
    (!sampledPaths.has(endpoint) || s.requests % (expected?.verifyEvery ?? 1) === 0);
  if (!sample) {
    req.resume();
    req.once('end', () => {
      arrived(path, id, null, req.headers);
      answer(204);
    });
    return;
  }
  sampledPaths.add(endpoint);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.once('end', () => {
    arrived(path, id, Buffer.concat(chunks), req.headers);
    answer(204);
  });
});
server.on('connection', (socket) => {
  s.connections++;
  s.open++;
  s.maxOpen = Math.max(s.maxOpen, s.open);
  socket.once('close', () => s.open--);
});
// Keep connections as long as the service keeps its own (Fastify's default, 72 s): a sender that
// reuses connections is never made to open new ones by this side.
server.keepAliveTimeout = 72_000;

function stats(): ReceiverStats {
  const x = expected;
  const cpu = process.cpuUsage(s.cpu0);
  const perPath: Record<string, number> = {};
  if (x) for (const [p, i] of x.paths) perPath[p] = x.perPath[i]!;
  return {
    kind: 'stats',
    expected: x?.total ?? 0,
    distinct: s.distinct,
    duplicates: s.duplicates,
    maxCopies: s.maxCopies,
    unexpected: s.unexpected,
    unexpectedExamples: s.unexpectedExamples,
    malformed: s.malformed,
    requests: s.requests,
    perPath,
    verified: s.verified,
    verifyFailed: s.verifyFailed,
    verifyFailure: s.verifyFailure,
    firstAtMs: s.firstAtMs,
    lastAtMs: s.lastAtMs,
    completeAtMs: s.completeAtMs,
    baseMs: s.baseMs,
    bucketMs: BUCKET_MS,
    timeline: s.timeline,
    connections: s.connections,
    maxOpenConnections: s.maxOpen,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

process.on('message', (m: ExpectOrder | { kind: 'stats' }) => {
  if (m.kind === 'stats') {
    process.send?.(stats());
    return;
  }
  const endpointOf = new Map<string, number>();
  const index = new Map<string, number>();
  m.endpoints.forEach((e, i) => {
    for (const id of e.eventIds) {
      endpointOf.set(id, i);
      index.set(id, index.size);
    }
  });
  expected = {
    endpointOf,
    index,
    copies: new Uint16Array(index.size),
    paths: new Map(m.endpoints.map((e, i) => [e.path, i])),
    hooks: m.endpoints.map((e) => new Webhook(e.secret)),
    perPath: m.endpoints.map(() => 0),
    verifyEvery: Math.max(1, m.verifyEvery),
    total: index.size,
  };
  s.baseMs = Date.now();
  s.cpu0 = process.cpuUsage();
  process.send?.({ kind: 'ready' });
});
// The bench went away (or is done): nothing else keeps this process useful.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.send?.({ kind: 'listening', port: typeof addr === 'object' && addr ? addr.port : 0 });
});

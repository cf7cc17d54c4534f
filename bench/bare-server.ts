/**
 * The ceiling: a bare `node:http` server that answers each benchmarked URL with the exact bytes the
 * service returned for it (captured by bench/run.ts): the same body and the same response headers
 * (their values frozen at capture). No framework, no auth, no rate limit, no routing beyond one Map
 * lookup: what this machine can do for the same responses, measured by the same wrk invocation in
 * the same run. Like the service, it holds one of Node's tick-queue entries (decision 0014), so
 * neither server can drop to V8's slow path for those partway through a run.
 *
 * Usage: node --import tsx bench/bare-server.ts <responses.json> [port]
 * responses.json: {"<path with query>": {"body": "<base64>", "headers": [[name, value], …]}, …}.
 * Prints "LISTENING <port>" when ready.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pinTickObjectShape } from '../src/main/tick-shape.ts';

const [file, portArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: bare-server.ts <responses.json> [port]\n');
  process.exit(2);
}

const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<
  string,
  { body: string; headers: [string, string][] }
>;
const answers = new Map<string, { body: Buffer; headers: string[] }>();
for (const [path, r] of Object.entries(raw)) {
  answers.set(path, { body: Buffer.from(r.body, 'base64'), headers: r.headers.flat() });
}
const notFound = Buffer.from('{"error":"not captured"}');
// The same V8 detail the service guards against (decision 0014): without it, a major GC can leave
// this server's process.nextTick on V8's slow path for the rest of its life, and the ceiling would
// drop by a fifth partway through a run. The ceiling should be the best plain node:http can do.
await pinTickObjectShape();

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (answer === undefined) {
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length });
    res.end(notFound);
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
// The service keeps connections for 72 s (Fastify's default); match it so an idle gap between runs
// never makes wrk reconnect to one server and not the other.
server.keepAliveTimeout = 72_000;

server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  process.stdout.write(`LISTENING ${port}\n`);
});

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

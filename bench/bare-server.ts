/**
 * The ceiling: a bare `node:http` server that answers each benchmarked URL with the exact body bytes
 * the service returned for it (captured by bench/run.ts), as `application/json`. No framework, no
 * auth, no rate limit, no routing beyond one Map lookup: what this machine can do for the same
 * response sizes, measured by the same wrk invocation in the same run.
 *
 * Usage: node --import tsx bench/bare-server.ts <responses.json> [port]
 * responses.json: {"<path with query>": "<body, base64>", ...}. Prints "LISTENING <port>" when ready.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, portArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: bare-server.ts <responses.json> [port]\n');
  process.exit(2);
}

const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
const bodies = new Map<string, Buffer>();
for (const [path, b64] of Object.entries(raw)) bodies.set(path, Buffer.from(b64, 'base64'));
const notFound = Buffer.from('{"error":"not captured"}');

const server = createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (body === undefined) {
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length });
    res.end(notFound);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
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

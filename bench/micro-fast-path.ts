/**
 * Microbenchmark of the fast path's own JavaScript (decision 0011): the service's request listener
 * called in a loop with minimal request/response objects, so Node's HTTP stack and the socket are
 * left out and only PureRank's per-request work is timed (URL → route, freshness probe, cache
 * lookup, key lookup, rate-limit decision, header array). Diagnostic only: the targets live in
 * `npm run bench`.
 *
 * Usage: node --import tsx bench/micro-fast-path.ts [database copy] [keys file] [path]
 * Defaults: a fresh copy of .bench/scale.db and .bench/keys.txt (run `npm run bench` once first).
 * BENCH_MICRO_CHURN_KB=N writes N KiB of a 16 MiB buffer between requests, as a server's own work
 * does (Node's HTTP stack allocates ~8 KiB per request), so per-key state is no longer in the CPU
 * cache when its key comes round again: the timing then includes the cache misses that dominate
 * on thousands of keys. The buffer's own time is measured alone and subtracted.
 * BENCH_MICRO_ROUNDS=N (default 5) rounds; 0 runs only the set-up.
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { buildApp } from '../src/http/app.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const [dbArg, keysArg, pathArg] = process.argv.slice(2);
const db = dbArg || join(ROOT, '.bench', 'micro.db');
if (!dbArg) {
  rmSync(`${db}-wal`, { force: true });
  rmSync(`${db}-shm`, { force: true });
  copyFileSync(join(ROOT, '.bench', 'scale.db'), db);
}
const keys = readFileSync(keysArg || join(ROOT, '.bench', 'keys.txt'), 'utf8')
  .split('\n')
  .filter(Boolean);
const path = pathArg || '/api/v1/vendors?limit=50';

const config = loadConfig({ ...process.env, DATABASE_URL: `sqlite:${db}`, PURERANK_SEED_DEMO: 'false' }, {});
const container = await createContainer(config, { limiter: 'memory' });
const app = await buildApp(container, {});
await app.ready();
const listener = app.server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;

// Fill the response cache and the key cache the way real traffic does (through the framework).
for (const key of keys) {
  const res = await app.inject({ url: path, headers: { authorization: `Bearer ${key}` } });
  if (res.statusCode !== 200) throw new Error(`priming ${path}: ${res.statusCode} ${res.body}`);
}

let written = 0;
const res = {
  writeHead() {
    return this;
  },
  end() {
    written++;
  },
} as unknown as ServerResponse;
const requests = keys.map(
  (key) =>
    ({
      method: 'GET',
      url: path,
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      headers: { host: '127.0.0.1', authorization: `Bearer ${key}` },
      rawHeaders: ['Host', '127.0.0.1', 'Authorization', `Bearer ${key}`],
    }) as unknown as IncomingMessage,
);

const churnBytes = Number(process.env.BENCH_MICRO_CHURN_KB ?? 0) * 1024;
// Allocated only when asked for: 16 MiB the plain timing has no use for.
const churnBuffer = new Uint8Array(churnBytes > 0 ? 16 << 20 : 0);
let churnAt = 0;
const churn = (): void => {
  if (churnBytes === 0) return;
  if (churnAt + churnBytes > churnBuffer.length) churnAt = 0;
  churnBuffer.fill(churnAt & 0xff, churnAt, churnAt + churnBytes);
  churnAt += churnBytes;
};
const rounds = Number(process.env.BENCH_MICRO_ROUNDS ?? 5);
const perRound = Math.min(200_000, Math.floor((keys.length * 900) / 6));
let churnNs = 0;
if (churnBytes > 0 && rounds > 0) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) churn();
  churnNs = Number(process.hrtime.bigint() - t0) / perRound;
  process.stdout.write(`churn alone: ${churnNs.toFixed(0)} ns per request (subtracted)\n`);
}
for (let round = 0; round < rounds; round++) {
  const before = written;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) {
    const r = requests[i % requests.length]!;
    // The same request objects are reused, so their strings' hashes stay cached (the HTTP parser
    // gives fresh ones): one more reason this is a lower bound.
    listener(r, res);
    churn();
  }
  const ns = Number(process.hrtime.bigint() - t0) / perRound - churnNs;
  if (written - before !== perRound) throw new Error('some requests left the fast path');
  process.stdout.write(`round ${round + 1}: ${ns.toFixed(0)} ns per request\n`);
}
await app.close();
await container.close();
if (!dbArg) for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedSuite } from './shared-suite.ts';
import { type Cluster, clusterAvailable, startCluster } from './support/instances.ts';
import { NGINX_BIN, type Nginx, nginxAvailable, startNginx } from './support/nginx.ts';

/**
 * deploy/nginx.conf, run by Debian's nginx in front of three real instances (one PostgreSQL
 * database, one Redis): it spreads requests over all three, passes the client's address and the
 * request id, keeps its connections to them alive, and fails over when one goes away.
 */

/** nginx's own request id: 32 hex digits. The service's own: 12 hex digits, a dash, a counter. */
const NGINX_ID = /^[0-9a-f]{32}$/;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request over a fresh connection from a chosen loopback address (all of 127/8 is this
 * machine), so the address nginx sees is not the 127.0.0.1 it connects to the instances from.
 */
function get(base: string, path: string, opts: { from?: string; id?: string } = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(
      `${base}${path}`,
      {
        agent: false,
        ...(opts.from ? { localAddress: opts.from } : {}),
        headers: opts.id === undefined ? {} : { 'x-request-id': opts.id },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', fail);
    req.end();
  });
}

/**
 * Raw bytes over a fresh connection, for requests no HTTP client sends (broken framing, odd request
 * lines): the answer, read to its Content-Length or until nginx closes the connection.
 */
function raw(base: string, text: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    const finish = () => {
      socket.destroy();
      const text = data.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return fail(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      done({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    };
    socket.on('data', (d) => {
      data = Buffer.concat([data, d]);
      const end = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(
        data.subarray(0, Math.max(end, 0)).toString('latin1'),
      );
      if (end >= 0 && length && data.length >= end + 4 + Number(length[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', fail);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.write(text);
  });
}

/** nginx's version, e.g. [1, 22]: how it reads repeated header lines changed in 1.23.0. */
function nginxVersion(): [number, number] {
  const out = spawnSync(NGINX_BIN ?? 'nginx', ['-v'], { encoding: 'utf8' });
  const m = /nginx\/(\d+)\.(\d+)/.exec(`${out.stdout}${out.stderr}`);
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

/** Fastify's request log lines ("incoming request") an instance wrote, for URLs containing `mark`. */
function requestLines(logs: string, mark: string): { url: string; remoteAddress: string }[] {
  return logs
    .split('\n')
    .filter((line) => line.includes('"incoming request"') && line.includes(mark))
    .map((line) => (JSON.parse(line) as { req: { url: string; remoteAddress: string } }).req);
}

/**
 * The TCP connections to these ports, in any state (established, or in TIME-WAIT for a minute
 * after closing), seen from /proc: each is named by its other end's port, which nginx picked.
 */
function connectionsTo(ports: number[]): Set<string> {
  const found = new Set<string>();
  const wanted = new Set(ports);
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4 || cols[3] === '0A') continue; // 0A: a listening socket
      const local = Number.parseInt(cols[1]!.split(':')[1]!, 16);
      const remote = Number.parseInt(cols[2]!.split(':')[1]!, 16);
      // The instance's end (local is its port) or nginx's end (remote is): one connection either way.
      if (wanted.has(local)) found.add(`${local}<${remote}`);
      else if (wanted.has(remote)) found.add(`${remote}<${local}`);
    }
  }
  return found;
}

const suite = nginxAvailable && clusterAvailable ? describe : describe.skip;

suite('nginx in front of three instances (deploy/nginx.conf)', () => {
  let cluster: Cluster;
  let nginx: Nginx;
  const run = Math.random().toString(36).slice(2, 10);

  beforeAll(async () => {
    cluster = await startCluster({
      instances: 3,
      // nginx connects from 127.0.0.1: the instances believe its X-Forwarded-For, and log each
      // request with the client address they took from it.
      env: { PURERANK_TRUST_PROXY: '127.0.0.1', LOG_REQUESTS: 'true', LOG_LEVEL: 'info' },
    });
    try {
      nginx = await startNginx(cluster.bases);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }, 180_000);

  afterAll(async () => {
    const errors = nginx?.errorLog() ?? '';
    await nginx?.stop();
    await cluster?.stop();
    // Nothing went wrong between nginx and the instances before the failover check killed one.
    const problems = errors
      .split('\n')
      .filter(
        (l) =>
          /\[(crit|alert|emerg)\]/.test(l) ||
          (l.includes('[error]') && l.includes('upstream') && !l.includes('failover')),
      );
    expect(problems).toEqual([]);
  }, 60_000);

  it('spreads requests over all three instances, which see the client address', async () => {
    const mark = `spread-${run}`;
    for (let i = 0; i < 30; i++) {
      const res = await get(nginx.base, `/healthz?probe=${mark}-${i}`, { from: '127.0.0.2' });
      expect(res.status).toBe(200);
    }
    // An instance's log line may arrive a moment after its answer (a pipe).
    const seen = await vi.waitFor(
      () => {
        const lines = cluster.instances.map((instance) => requestLines(instance.logs(), mark));
        // All 30 were answered once, and every instance answered some of them.
        expect(
          lines
            .flat()
            .map((l) => l.url)
            .sort(),
        ).toEqual(Array.from({ length: 30 }, (_, i) => `/healthz?probe=${mark}-${i}`).sort());
        for (const some of lines) expect(some.length).toBeGreaterThan(0);
        return lines;
      },
      { timeout: 5000, interval: 50 },
    );
    // The instances took the address from nginx's X-Forwarded-For: the client's, not nginx's.
    expect(new Set(seen.flat().map((l) => l.remoteAddress))).toEqual(new Set(['127.0.0.2']));
    // A client's own X-Forwarded-For is replaced at the edge, not believed.
    const spoof = `spoof-${run}`;
    await new Promise<void>((done, fail) => {
      const req = request(`${nginx.base}/healthz?probe=${spoof}`, {
        agent: false,
        localAddress: '127.0.0.3',
        headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
      });
      req.on('response', (res) => res.resume().on('end', () => done()));
      req.on('error', fail);
      req.end();
    });
    await vi.waitFor(
      () => {
        const spoofed = cluster.instances.flatMap((instance) => requestLines(instance.logs(), spoof));
        expect(spoofed.map((l) => l.remoteAddress)).toEqual(['127.0.0.3']);
      },
      { timeout: 5000, interval: 50 },
    );
  });

  it("keeps the client's well-formed request id and gives nginx's otherwise", async () => {
    const own = `client-${run}.1:a_b-c`;
    const kept = await get(nginx.base, '/api/v1/vendors/no-such-vendor', { id: own });
    // Through to the instance and back, in the header and in the documented error body.
    expect(kept.headers['x-request-id']).toBe(own);
    expect(JSON.parse(kept.body).error.request_id).toBe(own);

    for (const id of [undefined, '', 'has space', 'x'.repeat(129), 'quote"d', 'ünï']) {
      const res = await get(nginx.base, '/api/v1/vendors/no-such-vendor', id === undefined ? {} : { id });
      const rid = res.headers['x-request-id'] as string;
      // nginx's $request_id, used by the instance (its own ids look different).
      expect(rid, String(id)).toMatch(NGINX_ID);
      expect(JSON.parse(res.body).error.request_id).toBe(rid);
      // nginx logs a request after answering it.
      await vi.waitFor(() => expect(nginx.accessLog()).toContain(`rid=${rid} `), {
        timeout: 5000,
        interval: 20,
      });
    }
    // The access log names the instance that answered each id.
    expect(nginx.accessLog()).toMatch(
      new RegExp(`rid=${own.replace(/\./g, '\\.')} upstream=127\\.0\\.0\\.1:\\d+ ustatus=401 `),
    );
  });

  it('passes one id when a request has several X-Request-Id lines', async () => {
    const res = await raw(
      nginx.base,
      'GET /api/v1/vendors/no-such-vendor HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
        `X-Request-Id: first-${run}\r\nX-Request-Id: second-${run}\r\n\r\n`,
    );
    expect(res.status).toBe(401);
    const [major, minor] = nginxVersion();
    // nginx 1.22 reads the first line only; 1.23 and later join them with ", ", which the rule
    // refuses. The instance is given one line either way (directly, Node would join them).
    if (major > 1 || minor >= 23) expect(res.headers['x-request-id']).toMatch(NGINX_ID);
    else expect(res.headers['x-request-id']).toBe(`first-${run}`);
    expect(JSON.parse(res.body).error.request_id).toBe(res.headers['x-request-id']);
  });

  it('does not serve /metrics from outside, in the documented error body', async () => {
    const res = await get(nginx.base, '/metrics', { id: `metrics-${run}` });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'not_found', message: expect.any(String), status: 404, request_id: `metrics-${run}` },
    });
  });

  it('answers what it refuses itself in the documented error body, with the request id', async () => {
    const tooManyHeaders = await new Promise<Answer>((done, fail) => {
      const req = request(`${nginx.base}/healthz`, {
        agent: false,
        headers: { 'x-request-id': `big-${run}`, 'x-pad': 'p'.repeat(20_000) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', fail);
      req.end();
    });
    expect(tooManyHeaders.status).toBe(431);
    expect(JSON.parse(tooManyHeaders.body)).toEqual({
      error: {
        code: 'headers_too_large',
        message: expect.any(String),
        status: 431,
        request_id: `big-${run}`,
      },
    });
    // Above the CoA upload limit and its form: refused before any instance sees a byte.
    const upload = await fetch(`${nginx.base}/v1/coa/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-request-id': `upload-${run}` },
      body: new Uint8Array(12 * 1024 * 1024),
    });
    expect(upload.status).toBe(413);
    expect(upload.headers.get('x-request-id')).toBe(`upload-${run}`);
    expect(await upload.json()).toEqual({
      error: {
        code: 'file_too_large',
        message: expect.any(String),
        status: 413,
        request_id: `upload-${run}`,
      },
    });
  });

  it('answers HTTP it will not parse in the documented error body, as an instance would', async () => {
    const error = (res: Answer) => JSON.parse(res.body).error as Record<string, unknown>;
    // A Transfer-Encoding other than exactly "chunked": nginx's 501, the instances' 400. The
    // connection is closed: the bytes after the headers cannot be framed.
    for (const te of ['xchunked', 'chunked, identity']) {
      const id = `te-${run}`;
      const res = await raw(
        nginx.base,
        `POST /admin/v1/import HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nTransfer-Encoding: ${te}\r\n\r\n0\r\n\r\n`,
      );
      expect(res.status, te).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.connection).toBe('close');
      expect(res.headers['x-request-id']).toBe(id);
      expect(error(res)).toEqual({
        code: 'invalid_parameter',
        message: expect.stringContaining('Transfer-Encoding'),
        status: 400,
        request_id: id,
      });
    }
    // Refused in the request line, before nginx reads any header: nginx's own id. (A named
    // location here would end in a 500; the config sends these to internal URIs.)
    const cases: [string, number, string][] = [
      [`GET /healthz?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'headers_too_large'],
      ['GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n', 400, 'invalid_parameter'],
      ['GARBAGE\r\n\r\n', 400, 'invalid_parameter'],
    ];
    for (const [text, status, code] of cases) {
      const res = await raw(nginx.base, text);
      expect(res.status, text.slice(0, 40)).toBe(status);
      const rid = res.headers['x-request-id'] as string;
      expect(rid).toMatch(NGINX_ID);
      expect(error(res)).toEqual({ code, message: expect.any(String), status, request_id: rid });
    }
    // A header nginx refuses (a second Host): 400, with the client's id.
    const twoHosts = await raw(
      nginx.base,
      `GET /healthz HTTP/1.1\r\nX-Request-Id: hosts-${run}\r\nHost: x\r\nHost: y\r\n\r\n`,
    );
    expect(twoHosts.status).toBe(400);
    expect(error(twoHosts)).toMatchObject({ code: 'invalid_parameter', request_id: `hosts-${run}` });
    // TRACE (nginx refuses it with 405): the 404 an instance gives a method no route takes.
    const trace = await raw(
      nginx.base,
      `TRACE /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-Id: trace-${run}\r\n\r\n`,
    );
    expect(trace.status).toBe(404);
    expect(error(trace)).toMatchObject({ code: 'not_found', status: 404, request_id: `trace-${run}` });
    // The internal locations behind these answers do not exist from outside.
    const inside = await get(nginx.base, '/.purerank-error/bad-request', { id: `inside-${run}` });
    expect(inside.status).toBe(404);
    expect(JSON.parse(inside.body).error).toMatchObject({ code: 'not_found', request_id: `inside-${run}` });
  });

  it('keeps its connections to the instances alive', async () => {
    const ports = cluster.bases.map((b) => Number(new URL(b).port));
    const before = connectionsTo(ports);
    const requests = 240;
    // Four clients at a time, each request on its own client connection.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < requests) {
          next++;
          const res = await get(nginx.base, '/healthz');
          expect(res.status).toBe(200);
        }
      }),
    );
    const opened = [...connectionsTo(ports)].filter((c) => !before.has(c));
    console.info(`[nginx] ${requests} requests opened ${opened.length} upstream connections`);
    // Without keep-alive every request opens one (240); with it, about one per request in flight
    // per instance, reused.
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.length).toBeLessThanOrEqual(12);
    // Every instance was connected to.
    expect(new Set(opened.map((c) => c.split('<')[0]))).toEqual(new Set(ports.map(String)));
  });

  // The multi-instance promises, with every request through nginx (before the failover check
  // below takes an instance away).
  sharedSuite('the shared multi-instance suite, through nginx', () => {
    if (!nginx) throw new Error('nginx did not start');
    return { entry: [nginx.base], cluster };
  });

  it('fails over when an instance dies (idempotent requests are retried on another)', async () => {
    const victim = cluster.instances[2]!;
    await victim.kill('SIGKILL');
    for (let i = 0; i < 20; i++) {
      const res = await get(nginx.base, `/healthz?probe=failover-${run}-${i}`);
      expect(res.status, res.body).toBe(200);
    }
    // The dead one was tried and then left alone (max_fails): at most two attempts in 10 s.
    const victimHost = new URL(victim.base).host;
    await vi.waitFor(() => expect(nginx.accessLog()).toContain(`failover-${run}-19 `), { timeout: 5000 });
    const tried = nginx
      .accessLog()
      .split('\n')
      .filter((l) => l.includes(`failover-${run}`) && l.includes(victimHost));
    expect(tried.length).toBeGreaterThan(0);
    expect(tried.length).toBeLessThanOrEqual(2);
  });
});

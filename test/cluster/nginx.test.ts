import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedSuite } from './shared-suite.ts';
import { type Cluster, clusterAvailable, startCluster } from './support/instances.ts';
import { type Nginx, nginxAvailable, startNginx } from './support/nginx.ts';

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

import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkConnectedPeer,
  DEFAULT_MAX_HEADER_BYTES,
  GuardedSender,
  type GuardedSenderOptions,
  resolveHost,
} from '../../src/adapters/webhook-http/guarded-sender.ts';
import { checkUrl } from '../../src/core/webhooks/endpoint-rules.ts';
import type { OutboundResponse } from '../../src/core/webhooks/model.ts';
import { newSecret } from '../../src/core/webhooks/secrets.ts';
import { deliveryHeaders } from '../../src/core/webhooks/signing.ts';

/**
 * The one outbound HTTP client against real local servers: what it reports, what it refuses, and
 * that a refusal happens before any connection (or, for the connected-socket check, before any
 * byte). Every server counts its TCP connections, so "refused without connecting" is measured.
 */

// A self-signed certificate for IP 127.0.0.1 (CA:TRUE, valid to 2126), made once with
// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 36500 -nodes
//  -subj "/CN=purerank webhook test" -addext "subjectAltName=IP:127.0.0.1"`.
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgC8JWD2Eara1QuEPh
Q7dJ9PsUx12s4tno+petczCIQmOhRANCAAS/RoTvRDRu+ZhzvasZ37dzhrfu2ZbW
wVUkB4jnmwmLNg0RdhgWUvjFXaZqVBREHBQVQWeG+gwva/F5AJ6q33bK
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBqTCCAU6gAwIBAgIUGxyqvcoXBA8TNyfv6iKmaL7OC28wCgYIKoZIzj0EAwIw
IDEeMBwGA1UEAwwVcHVyZXJhbmsgd2ViaG9vayB0ZXN0MCAXDTI2MTEyNDA2NDkw
MloYDzIxMjYxMDMxMDY0OTAyWjAgMR4wHAYDVQQDDBVwdXJlcmFuayB3ZWJob29r
IHRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAS/RoTvRDRu+ZhzvasZ37dz
hrfu2ZbWwVUkB4jnmwmLNg0RdhgWUvjFXaZqVBREHBQVQWeG+gwva/F5AJ6q33bK
o2QwYjAdBgNVHQ4EFgQUe+YOgz2ZN5L5d0wwumansXrPEeYwHwYDVR0jBBgwFoAU
e+YOgz2ZN5L5d0wwumansXrPEeYwDwYDVR0TAQH/BAUwAwEB/zAPBgNVHREECDAG
hwR/AAABMAoGCCqGSM49BAMCA0kAMEYCIQC3Mj5oSGbw48rpA6JX63B09pyB76gS
wRvvc7vQAHBNJgIhAID3uubH9yJIe539W3K8mxmKkhKwFlA/3bbxJJXRfQDM
-----END CERTIFICATE-----
`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function sender(opts: Partial<GuardedSenderOptions> & { allowPrivate: boolean }): GuardedSender {
  const s = new GuardedSender(opts);
  cleanups.push(() => s.close());
  return s;
}

interface Counted {
  port: number;
  /** TCP connections accepted. */
  connections: number;
  /** Connections currently open. */
  open: number;
  /** Bytes received over all connections (raw servers only). */
  bytes: number;
  /** HTTP requests seen (HTTP servers only). */
  requests: number;
}

async function listen(server: net.Server, c: Counted): Promise<Counted> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    c.connections++;
    c.open++;
    sockets.add(s);
    s.on('data', (d: Buffer) => {
      c.bytes += d.length;
    });
    s.on('error', () => {});
    s.on('close', () => {
      c.open--;
      sockets.delete(s);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  c.port = (server.address() as net.AddressInfo).port;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return c;
}

const counter = (): Counted => ({ port: 0, connections: 0, open: 0, bytes: 0, requests: 0 });

/** An HTTP receiver on 127.0.0.1 that counts connections and requests. */
async function receiver(handler: http.RequestListener): Promise<Counted> {
  const c = counter();
  const server = http.createServer((req, res) => {
    c.requests++;
    handler(req, res);
  });
  return listen(server, c);
}

/** A TCP server that accepts and says nothing: counts connections and every byte sent to it. */
const silentTcp = (): Promise<Counted> => listen(net.createServer(), counter());

/** A TCP server that answers each connection with fixed bytes. */
const rawAnswer = (answer: string): Promise<Counted> =>
  listen(
    net.createServer((s) => {
      s.once('data', () => s.end(answer));
    }),
    counter(),
  );

async function tlsReceiver(): Promise<Counted> {
  const c = counter();
  const server = tls.createServer({ key: TLS_KEY, cert: TLS_CERT }, (s) => {
    s.on('error', () => {});
    s.once('data', () => {
      c.requests++;
      s.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    });
  });
  return listen(server, c);
}

const request = (url: string, timeoutMs = 2_000) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: '{"id":"evt_1"}',
  timeoutMs,
});

/** An error is words for a customer: one line, no stack frames, no file paths. */
function expectCleanError(r: OutboundResponse): void {
  expect(r.error).toEqual(expect.any(String));
  expect(r.error).not.toMatch(/\n|\bat \S+ \(|node:|\.ts:|\.js:/);
}

const waitFor = async (cond: () => boolean, ms = 2_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('GuardedSender with private targets allowed (development and tests)', () => {
  it('posts the body and headers over http to 127.0.0.1 and reports status and latency', async () => {
    let got: { method?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    const rx = await receiver((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        got = { method: req.method, headers: req.headers, body };
        setTimeout(() => res.writeHead(204).end(), 30);
      });
    });
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${rx.port}/hooks?x=1`));
    expect(r).toMatchObject({ status: 204, error: null, retryAfter: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(25);
    expect(r.latencyMs).toBeLessThan(1_000);
    expect(got.method).toBe('POST');
    expect(got.body).toBe('{"id":"evt_1"}');
    expect(got.headers?.['content-length']).toBe(String('{"id":"evt_1"}'.length));
    expect(got.headers?.['content-type']).toBe('application/json');
  });

  it('delivers Standard Webhooks headers a receiver verifies with the standardwebhooks package', async () => {
    const secret = newSecret();
    const verified: unknown[] = [];
    const rx = await receiver((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        try {
          verified.push(new Webhook(secret).verify(body, req.headers as Record<string, string>));
          res.writeHead(200).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    const body = JSON.stringify({ id: 'evt_9', type: 'score.changed', created: 1, data: {} });
    const headers = deliveryHeaders(
      { current: secret, previous: null, previousUntil: null },
      'evt_9',
      body,
      Date.now(),
    );
    const r = await sender({ allowPrivate: true }).send({
      url: `http://127.0.0.1:${rx.port}/`,
      headers,
      body,
      timeoutMs: 2_000,
    });
    expect(r.status).toBe(200);
    expect(verified).toEqual([{ id: 'evt_9', type: 'score.changed', created: 1, data: {} }]);
  });

  it('reports Retry-After as the receiver sent it, on 429 and 503 alike', async () => {
    const rx = await receiver((req, res) => {
      req.resume();
      if (req.url === '/busy') res.writeHead(429, { 'retry-after': '120' }).end();
      else res.writeHead(503, { 'retry-after': 'Wed, 21 Oct 2037 07:28:00 GMT' }).end('down');
    });
    const s = sender({ allowPrivate: true });
    expect(await s.send(request(`http://127.0.0.1:${rx.port}/busy`))).toMatchObject({
      status: 429,
      error: null,
      retryAfter: '120',
    });
    expect(await s.send(request(`http://127.0.0.1:${rx.port}/down`))).toMatchObject({
      status: 503,
      retryAfter: 'Wed, 21 Oct 2037 07:28:00 GMT',
    });
  });

  it('does not follow a redirect: the 3xx is the answer and the target is never hit', async () => {
    const target = await receiver((req, res) => {
      req.resume();
      res.writeHead(200).end();
    });
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end();
    });
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${rx.port}/`));
    expect(r).toMatchObject({ status: 307, error: null });
    await new Promise((res) => setTimeout(res, 50));
    expect(target.connections).toBe(0);
    expect(target.requests).toBe(0);
  });

  it('cuts a 10 MB response body at maxResponseBytes, quickly, still reporting the status', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 'x');
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-length': big.length }).end(big);
    });
    const r = await sender({ allowPrivate: true, maxResponseBytes: 16 * 1024 }).send(
      request(`http://127.0.0.1:${rx.port}/`, 5_000),
    );
    expect(r).toMatchObject({ status: 200, error: null });
    expect(r.latencyMs).toBeLessThan(1_000);
    // Read to the end, the socket would go back to the keep-alive pool and stay open: it was dropped.
    await waitFor(() => rx.open === 0);
  });

  it('cuts a body that never ends, well before the time limit', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(202);
      const t = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(t));
    });
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${rx.port}/`, 5_000));
    expect(r).toMatchObject({ status: 202, error: null });
    expect(r.latencyMs).toBeLessThan(1_000);
  });

  it('gives up on a receiver that never answers at the time limit', async () => {
    const rx = await receiver((req) => {
      req.resume(); // reads the request, never answers
    });
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${rx.port}/`, 300));
    expect(r.status).toBeNull();
    expect(r.error).toBe('timeout: no complete answer within 300 ms');
    expect(r.latencyMs).toBeGreaterThanOrEqual(295);
    expect(r.latencyMs).toBeLessThan(300 + 400);
    expectCleanError(r);
  });

  it('takes the status as the answer when only the body is still trickling at the time limit', async () => {
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-length': 1_000 });
      const t = setInterval(() => res.write('z'), 20);
      res.on('close', () => clearInterval(t));
    });
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${rx.port}/`, 300));
    expect(r).toMatchObject({ status: 200, error: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(295);
    expect(r.latencyMs).toBeLessThan(300 + 400);
    // The half-read connection is not kept for another delivery.
    await waitFor(() => rx.open === 0);
  });

  it('gives up on a TCP peer that accepts and never speaks HTTP', async () => {
    const tcp = await silentTcp();
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${tcp.port}/`, 250));
    expect(r).toMatchObject({ status: null, error: 'timeout: no complete answer within 250 ms' });
    expect(r.latencyMs).toBeLessThan(250 + 400);
  });

  it('reports a refused connection in words', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${port}/`));
    expect(r).toMatchObject({ status: null, error: 'connection refused', retryAfter: null });
    expectCleanError(r);
  });

  it('reports a receiver that closes without answering as a reset', async () => {
    const tcp = await listen(
      net.createServer((s) => s.once('data', () => s.destroy())),
      counter(),
    );
    const r = await sender({ allowPrivate: true }).send(request(`http://127.0.0.1:${tcp.port}/`));
    expect(r).toMatchObject({ status: null, error: 'connection reset by the receiver' });
  });

  it('fails an answer whose headers are larger than the limit, and a garbled one', async () => {
    const huge = await rawAnswer(
      `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(20_000)}\r\ncontent-length: 0\r\n\r\n`,
    );
    const s = sender({ allowPrivate: true });
    const r = await s.send(request(`http://127.0.0.1:${huge.port}/`));
    expect(r).toMatchObject({
      status: null,
      error: `the response headers are larger than ${DEFAULT_MAX_HEADER_BYTES} bytes`,
    });
    const small = sender({ allowPrivate: true, maxHeaderBytes: 1024 });
    const mid = await rawAnswer(
      `HTTP/1.1 200 OK\r\nx-mid: ${'a'.repeat(2_000)}\r\ncontent-length: 0\r\n\r\n`,
    );
    expect((await small.send(request(`http://127.0.0.1:${mid.port}/`))).error).toBe(
      'the response headers are larger than 1024 bytes',
    );
    const garbled = await rawAnswer('SMTP ready\r\n\r\n');
    const g = await s.send(request(`http://127.0.0.1:${garbled.port}/`));
    expect(g.status).toBeNull();
    expect(g.error).toMatch(/^the answer is not valid HTTP \(HPE_[A-Z_]+\)$/);
  });

  it('refuses to build a request whose header carries a line break (no header injection)', async () => {
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(200).end();
    });
    const r = await sender({ allowPrivate: true }).send({
      ...request(`http://127.0.0.1:${rx.port}/`),
      headers: { 'x-evil': 'a\r\nx-injected: 1' },
    });
    expect(r).toMatchObject({ status: null, error: 'the request could not be built' });
    expect(rx.connections).toBe(0);
  });

  it('reuses a kept-alive connection for the same host only; another host name gets its own', async () => {
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(200).end();
    });
    const s = sender({ allowPrivate: true });
    for (let i = 0; i < 3; i++)
      expect((await s.send(request(`http://127.0.0.1:${rx.port}/`))).status).toBe(200);
    expect(rx.connections).toBe(1);
    // Same address, different name: a pool is per host name, so a socket judged for one name is
    // never lent to another.
    expect((await s.send(request(`http://localhost:${rx.port}/`))).status).toBe(200);
    expect(rx.connections).toBe(2);
    expect(rx.requests).toBe(4);
  });

  it('closes an idle kept-alive socket after idleSocketMs', async () => {
    const rx = await receiver((req, res) => {
      req.resume();
      res.writeHead(200).end();
    });
    const s = sender({ allowPrivate: true, idleSocketMs: 100 });
    expect((await s.send(request(`http://127.0.0.1:${rx.port}/`))).status).toBe(200);
    expect(rx.open).toBe(1);
    await waitFor(() => rx.open === 0, 1_500);
  });

  it('close() ends idle and busy sockets; a send after close fails at once', async () => {
    const rx = await receiver((req, res) => {
      req.resume();
      if (req.url === '/hang') return;
      res.writeHead(200).end();
    });
    const s = new GuardedSender({ allowPrivate: true });
    // One idle socket (kept alive for localhost), one busy (127.0.0.1, never answered).
    expect((await s.send(request(`http://localhost:${rx.port}/`))).status).toBe(200);
    const hanging = s.send(request(`http://127.0.0.1:${rx.port}/hang`, 10_000));
    await waitFor(() => rx.requests === 2);
    expect(rx.open).toBe(2);
    const started = Date.now();
    await s.close();
    const r = await hanging;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(r.status).toBeNull();
    expectCleanError(r);
    await waitFor(() => rx.open === 0);
    expect(await s.send(request(`http://127.0.0.1:${rx.port}/`))).toMatchObject({
      status: null,
      error: 'the sender is closed',
    });
    expect(rx.requests).toBe(2);
  });

  it('verifies certificates: a self-signed receiver is a TLS error, not a delivery', async () => {
    const rx = await tlsReceiver();
    const r = await sender({ allowPrivate: true }).send(request(`https://127.0.0.1:${rx.port}/`));
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/^TLS error \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/);
    expect(rx.requests).toBe(0);
    expectCleanError(r);
  });

  it('speaks TLS over the checked socket when the certificate is trusted, and checks the host name', async () => {
    const rx = await tlsReceiver();
    const s = sender({ allowPrivate: true, extraCaForTests: TLS_CERT });
    expect(await s.send(request(`https://127.0.0.1:${rx.port}/`))).toMatchObject({
      status: 200,
      error: null,
    });
    expect(rx.requests).toBe(1);
    // The certificate names 127.0.0.1 only.
    const r = await s.send(request(`https://localhost:${rx.port}/`));
    expect(r).toMatchObject({
      status: null,
      error: 'TLS error (ERR_TLS_CERT_ALTNAME_INVALID): the certificate does not name this host',
    });
    expect(rx.requests).toBe(1);
  });
  it('reports a TLS receiver that resets the connection mid-answer, without an unhandled error', async () => {
    /** A TLS receiver that answers `answer` (if any), then resets the TCP connection. */
    const resetting = (answer: string | null) => {
      const server = tls.createServer({ key: TLS_KEY, cert: TLS_CERT }, (t) => {
        t.on('error', () => {});
        t.once('data', () => {
          if (answer) t.write(answer);
          setTimeout(() => raw.get(t.remotePort)?.resetAndDestroy(), 20);
        });
      });
      // The TCP sockets under the TLS ones, by client port: an RST is sent on the TCP socket.
      const raw = new Map<number | undefined, net.Socket>();
      server.on('connection', (r: net.Socket) => raw.set(r.remotePort, r));
      return listen(server, counter());
    };
    const s = sender({ allowPrivate: true, extraCaForTests: TLS_CERT });
    const late = await resetting('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial');
    // The status line came before the reset: that is the answer.
    expect(await s.send(request(`https://127.0.0.1:${late.port}/`))).toMatchObject({
      status: 200,
      error: null,
    });
    const early = await resetting(null);
    const r = await s.send(request(`https://127.0.0.1:${early.port}/`));
    expect(r).toMatchObject({ status: null, error: 'connection reset by the receiver' });
  });
});

describe('GuardedSender with private targets refused (the default)', () => {
  it('refuses http, without connecting', async () => {
    const rx = await receiver((_req, res) => res.writeHead(200).end());
    const r = await sender({ allowPrivate: false }).send(request(`http://127.0.0.1:${rx.port}/`));
    expect(r).toMatchObject({ status: null, error: 'the endpoint URL is not https' });
    expect(rx.connections).toBe(0);
  });

  it.each([
    ['https://127.0.0.1:PORT/', '127.0.0.1 is not a public address (loopback)'],
    ['https://[::1]:PORT/', '::1 is not a public address (loopback)'],
    ['https://[::ffff:127.0.0.1]:PORT/', '127.0.0.1 is not a public address (loopback)'],
    // Odd IPv4 notations: the WHATWG parser normalises them to 127.0.0.1 before anyone judges.
    ['https://0x7f.1:PORT/', '127.0.0.1 is not a public address (loopback)'],
    ['https://2130706433:PORT/', '127.0.0.1 is not a public address (loopback)'],
    ['https://0177.0.0.1:PORT/', '127.0.0.1 is not a public address (loopback)'],
    ['https://127.1:PORT/', '127.0.0.1 is not a public address (loopback)'],
    ['https://169.254.169.254:PORT/', '169.254.169.254 is not a public address (linkLocal)'],
    ['https://10.0.0.1:PORT/', '10.0.0.1 is not a public address (private)'],
    ['https://[fd00:ec2::254]:PORT/', 'fd00:ec2::254 is not a public address (uniqueLocal)'],
  ])('refuses the literal %s without connecting', async (template, why) => {
    const tcp = await silentTcp();
    const r = await sender({ allowPrivate: false }).send(request(template.replace('PORT', String(tcp.port))));
    expect(r).toMatchObject({ status: null, error: `refused: ${why}`, retryAfter: null });
    expect(tcp.connections).toBe(0);
  });

  it('refuses a name that resolves to loopback at the lookup, without connecting', async () => {
    const tcp = await silentTcp();
    const r = await sender({ allowPrivate: false }).send(request(`https://localhost:${tcp.port}/`));
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/^refused: localhost resolves to a non-public address \(loopback\)$/);
    expect(tcp.connections).toBe(0);
    expectCleanError(r);
  });

  it('refuses on the connected socket alone (DNS rebinding): connected, but not one byte sent', async () => {
    // The lookup's verdict is switched off (test-only knob), so what stops this delivery is the
    // check of the connected socket's peer, which runs before TLS starts.
    const tcp = await silentTcp();
    const r = await sender({ allowPrivate: false, unsafeSkipLookupCheckForTests: true }).send(
      request(`https://localhost:${tcp.port}/`),
    );
    expect(r).toMatchObject({
      status: null,
      error: 'refused: connected to a non-public address (loopback)',
    });
    expect(tcp.connections).toBe(1);
    await waitFor(() => tcp.open === 0);
    expect(tcp.bytes).toBe(0);
  });

  it('refuses a URL with credentials, and an IPv6 zone id (not a valid URL)', async () => {
    const s = sender({ allowPrivate: false });
    expect((await s.send(request('https://user:pw@example.com/'))).error).toBe(
      'the endpoint URL carries credentials',
    );
    expect((await s.send(request('https://[fe80::1%25eth0]/'))).error).toBe('the endpoint URL is not valid');
    expect((await s.send(request('not a url'))).error).toBe('the endpoint URL is not valid');
    expect((await s.send(request('ftp://example.com/'))).error).toBe('the endpoint URL is not https');
  });
});

describe('checkConnectedPeer', () => {
  const connectTo = async (port: number): Promise<net.Socket> => {
    const s = net.connect(port, '127.0.0.1');
    cleanups.push(() => void s.destroy());
    await new Promise<void>((resolve, reject) => {
      s.once('connect', resolve);
      s.once('error', reject);
    });
    return s;
  };

  it('destroys a socket connected to 127.0.0.1 when private addresses are refused', async () => {
    const tcp = await silentTcp();
    const s = await connectTo(tcp.port);
    expect(checkConnectedPeer(s, false)).toBe('refused: connected to a non-public address (loopback)');
    expect(s.destroyed).toBe(true);
    await waitFor(() => tcp.open === 0);
  });

  it('leaves it alone when private addresses are allowed', async () => {
    const tcp = await silentTcp();
    const s = await connectTo(tcp.port);
    expect(checkConnectedPeer(s, true)).toBeNull();
    expect(s.destroyed).toBe(false);
    expect(tcp.open).toBe(1);
  });

  it('refuses a socket whose peer is unknown (already closed)', async () => {
    const tcp = await silentTcp();
    const s = await connectTo(tcp.port);
    s.destroy();
    await new Promise((r) => s.once('close', r));
    expect(checkConnectedPeer(s, false)).toBe('refused: connected to a non-public address (unknown peer)');
  });
});

describe('resolveHost (registration\u2019s resolver)', () => {
  it('gives every address of a name', async () => {
    expect(await resolveHost('localhost')).toContain('127.0.0.1');
  });

  it('gives up on a resolver that never answers, and registration calls the name unresolvable', async () => {
    const hung = (() => {}) as unknown as typeof import('node:dns').lookup;
    const started = Date.now();
    await expect(resolveHost('slow.example', { timeoutMs: 50, lookup: hung })).rejects.toThrow(
      'slow.example did not resolve within 50 ms',
    );
    expect(Date.now() - started).toBeLessThan(500);
    await expect(
      checkUrl('https://slow.example/', {
        allowPrivate: false,
        resolve: (h) => resolveHost(h, { timeoutMs: 50, lookup: hung }),
      }),
    ).rejects.toThrow(
      "Parameter 'url' must name a host that resolves, and only to public addresses: slow.example does not.",
    );
  });
});

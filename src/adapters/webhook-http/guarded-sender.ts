import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { refusedAddress } from '../../core/webhooks/address-policy.ts';
import type { OutboundRequest, OutboundResponse, WebhookSender } from '../../core/webhooks/model.ts';

export interface GuardedSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private/loopback targets (development and tests only). */
  allowPrivate: boolean;
  /** Bytes of a response body read before the connection is dropped (the body is not kept). */
  maxResponseBytes?: number;
  /** Idle keep-alive sockets kept per target host. */
  maxFreeSockets?: number;
}

/** What the receiver may send back before we stop reading: its answer is the status, not the body. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * The one outbound HTTP client of the service (DESIGN.md §2: address classes with ipaddr.js,
 * checked on the connected socket). Every address a name resolves to is judged before the connect
 * (a name that resolves to a private address is refused, not tried), and the socket's peer is
 * judged again once connected, so DNS rebinding between registration and delivery gains nothing.
 * Redirects are not followed (a 3xx is a failed attempt). The response body is read up to a small
 * limit and discarded. Never throws: a failure is an OutboundResponse with `error`.
 */
export class GuardedSender implements WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly maxResponseBytes: number;

  constructor(private readonly opts: GuardedSenderOptions) {
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const agentOpts = {
      keepAlive: true,
      maxFreeSockets: opts.maxFreeSockets ?? 16,
      scheduling: 'lifo' as const,
      lookup: this.lookup,
    };
    this.httpAgent = new http.Agent(agentOpts);
    this.httpsAgent = new https.Agent(agentOpts);
  }

  /** A dns.lookup that refuses names resolving to any non-public address (unless allowed). */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const list = addresses;
      if (!this.opts.allowPrivate) {
        for (const a of list) {
          const why = refusedAddress(a.address);
          if (why) return callback(refused(`${hostname} resolves to ${why}`), '', 4);
        }
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(refused(`${hostname} resolves to no address`), '', 4);
      callback(null, first.address, first.family);
    });
  };

  send(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    return new Promise<OutboundResponse>((resolve) => {
      let settled = false;
      const finish = (r: Omit<OutboundResponse, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, latencyMs: latency() });
      };
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return finish({ status: null, error: 'the endpoint URL is not valid', retryAfter: null });
      }
      const secure = url.protocol === 'https:';
      if (!secure && !(this.opts.allowPrivate && url.protocol === 'http:')) {
        return finish({ status: null, error: 'the endpoint URL is not https', retryAfter: null });
      }
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      const literalWhy = this.opts.allowPrivate
        ? null
        : isLiteralIp(literal)
          ? refusedAddress(literal)
          : null;
      if (literalWhy) return finish({ status: null, error: `refused: ${literalWhy}`, retryAfter: null });
      const body = Buffer.from(req.body, 'utf8');
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...req.headers, 'content-length': String(body.length) },
      });
      const timer = setTimeout(() => {
        request.destroy(new TimeoutError(req.timeoutMs));
      }, req.timeoutMs);
      request.on('socket', (socket: Socket) => {
        // A reused keep-alive socket was judged when it connected.
        if (socket.remoteAddress) return;
        socket.once('connect', () => {
          const peer = socket.remoteAddress ?? '';
          const why = this.opts.allowPrivate ? null : refusedAddress(peer);
          if (why) request.destroy(refused(`connected to ${why}`));
        });
      });
      request.on('error', (err) =>
        finish({ status: null, error: describe(err, req.timeoutMs), retryAfter: null }),
      );
      request.on('response', (res) => {
        const status = res.statusCode ?? null;
        const retryAfter = header(res.headers['retry-after']);
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status is the answer. Drop the connection rather than read a flood.
          if (read > this.maxResponseBytes) {
            res.destroy();
            finish({ status, error: null, retryAfter });
          }
        });
        res.on('end', () => finish({ status, error: null, retryAfter }));
        res.on('error', () => finish({ status, error: null, retryAfter }));
        res.on('close', () => finish({ status, error: null, retryAfter }));
      });
      request.end(body);
    });
  }

  async close(): Promise<void> {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

class RefusedError extends Error {}
const refused = (why: string): Error => new RefusedError(`refused: ${why}`);

const isLiteralIp = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':');

const header = (v: string | string[] | undefined): string | null =>
  Array.isArray(v) ? (v[0] ?? null) : (v ?? null);

/** An error in words a customer can act on; never a stack. */
function describe(err: Error, timeoutMs: number): string {
  if (err instanceof TimeoutError) return `timeout: no complete answer within ${timeoutMs} ms`;
  if (err instanceof RefusedError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || /certificate|tls|ssl/i.test(err.message)) {
        return `TLS error (${code ?? 'handshake failed'})`;
      }
      return code ? `connection error (${code})` : 'connection error';
  }
}

/** All addresses of a host name (registration's SSRF check). */
export const resolveHost = (host: string): Promise<string[]> =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  );

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type NetConnectOpts, connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { nonPublicClass, refusedAddress } from '../../core/webhooks/address-policy.ts';
import type { OutboundRequest, OutboundResponse, WebhookSender } from '../../core/webhooks/model.ts';

export interface GuardedSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private/loopback targets (development and tests only). */
  allowPrivate: boolean;
  /** Bytes of a response body read before the connection is dropped (the body is not kept). */
  maxResponseBytes?: number;
  /** Bytes of response status line and headers accepted (Node's parser limit); more is a failure. */
  maxHeaderBytes?: number;
  /** Idle keep-alive sockets kept per target host. */
  maxFreeSockets?: number;
  /**
   * An idle keep-alive socket is closed after this long. Shorter than the 5 s most servers (Node's
   * default among them) keep an idle connection, so we rarely reuse one the receiver is closing,
   * and thousands of endpoints do not pin thousands of idle sockets.
   */
  idleSocketMs?: number;
  /**
   * TESTS ONLY, never set from configuration (src/container.ts passes `allowPrivate` alone): the
   * DNS answer is not judged, so a test can prove the connected-socket check refuses on its own.
   */
  unsafeSkipLookupCheckForTests?: true;
  /**
   * TESTS ONLY, never set from configuration: one more certificate authority to trust (PEM), so a
   * test can run a local TLS receiver. Verification stays on; this only adds a trust anchor.
   */
  extraCaForTests?: string;
}

/** What the receiver may send back before we stop reading: its answer is the status, not the body. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
/** Node's own default, stated: a receiver's headers larger than this fail the attempt. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
export const DEFAULT_IDLE_SOCKET_MS = 4_000;

/**
 * Judges the peer of a freshly connected socket and destroys the socket when the peer is not a
 * public address (unless private targets are allowed). Returns why it refused, or null. This is
 * the DNS-rebinding defence: whatever a name resolved to, what counts is where we are connected,
 * and no byte (not even a TLS ClientHello) has been written yet when this runs.
 */
export function checkConnectedPeer(socket: Socket, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const peer = socket.remoteAddress;
  // A name's address is not echoed: the delivery log must not reveal what internal names resolve to.
  const cls = peer === undefined ? 'unknown peer' : nonPublicClass(peer);
  if (cls === null) return null;
  socket.destroy();
  return `refused: connected to a non-public address (${cls})`;
}

/**
 * The one outbound HTTP client of the service (DESIGN.md §2: address classes with ipaddr.js,
 * checked on the connected socket). Every address a name resolves to is judged before the connect
 * (a name that resolves to a private address is refused, not tried); a literal IP in the URL is
 * judged before any connect; and the socket's peer is judged again once connected, before a byte
 * is written (our agents connect the TCP socket themselves and start TLS only after the check), so
 * DNS rebinding between registration and delivery gains nothing. Keep-alive pools are per host
 * name and port, and every pooled socket passed the check when it connected. Redirects are not
 * followed (a 3xx is a failed attempt). The response body is read up to a small limit and
 * discarded. Never throws: a failure is an OutboundResponse with `error`, in words, never a stack.
 */
export class GuardedSender implements WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly maxResponseBytes: number;
  private readonly maxHeaderBytes: number;
  /** TCP sockets still connecting (not yet in an agent's books): close() ends them too. */
  private readonly connecting = new Set<Socket>();
  private closed = false;

  constructor(private readonly opts: GuardedSenderOptions) {
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.maxHeaderBytes = opts.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
    const agentOpts = {
      keepAlive: true,
      maxFreeSockets: opts.maxFreeSockets ?? 16,
      // The agent closes a *free* socket that idles this long (a busy one is left to our timer).
      timeout: opts.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS,
      scheduling: 'lifo' as const,
    };
    const connect = this.connectChecked;
    this.httpAgent = new (class extends http.Agent {
      override createConnection(options: http.ClientRequestArgs, cb?: ConnectCallback): undefined {
        connect(options, (err, socket) => (err ? fail(cb, err) : cb?.(null, socket!)));
        return undefined;
      }
    })(agentOpts);
    this.httpsAgent = new (class extends https.Agent {
      override createConnection(options: https.RequestOptions, cb?: ConnectCallback): undefined {
        connect(options, (err, socket) => {
          if (err) return fail(cb, err);
          try {
            // https.Agent's own createConnection over the checked socket: certificate and host
            // name verification as usual, and its TLS session cache.
            const overSocket: https.RequestOptions & { socket: Socket } = { ...options, socket: socket! };
            const tls = super.createConnection(overSocket);
            if (!tls) throw new Error('no TLS socket');
            cb?.(null, tls);
          } catch (e) {
            socket!.destroy();
            fail(cb, e instanceof Error ? e : new Error(String(e)));
          }
        });
        return undefined;
      }
    })(opts.extraCaForTests ? { ...agentOpts, ca: opts.extraCaForTests } : agentOpts);
  }

  /** A dns.lookup that refuses names resolving to any non-public address (unless allowed). */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const list = addresses;
      if (list.length === 0) return callback(refused(`${hostname} resolves to no address`), '', 4);
      if (!this.opts.allowPrivate && !this.opts.unsafeSkipLookupCheckForTests) {
        for (const a of list) {
          const cls = nonPublicClass(a.address);
          if (cls) return callback(refused(`${hostname} resolves to a non-public address (${cls})`), '', 4);
        }
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

  /**
   * TCP connect through the guarded lookup, then the peer check, then hand the socket over. Only
   * the fields a TCP connect needs are passed on (the request's options also carry `path` & co.).
   */
  private readonly connectChecked = (
    options: http.ClientRequestArgs & { connectTimeoutMs?: number },
    done: (err: Error | null, socket?: Socket) => void,
  ): void => {
    if (this.closed) {
      done(new ClosedError());
      return;
    }
    const netOpts: NetConnectOpts = {
      host: options.host ?? undefined,
      port: Number(options.port),
      lookup: this.lookup,
      noDelay: true,
      keepAlive: true,
    };
    if (options.family) netOpts.family = options.family;
    if (options.localAddress) netOpts.localAddress = options.localAddress;
    const socket = netConnect(netOpts);
    this.connecting.add(socket);
    const limitMs = options.connectTimeoutMs ?? 15_000;
    const timer = setTimeout(() => socket.destroy(new TimeoutError(limitMs)), limitMs);
    const settle = (err: Error | null) => {
      clearTimeout(timer);
      this.connecting.delete(socket);
      socket.off('error', onError);
      socket.off('close', onClose);
      done(err, err ? undefined : socket);
    };
    const onError = (err: Error) => settle(err);
    // Destroyed without an error (close() while connecting).
    const onClose = () => settle(new ClosedError());
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.once('connect', () => {
      const why = checkConnectedPeer(socket, this.opts.allowPrivate);
      settle(why ? new RefusedError(why) : null);
    });
  };

  send(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    return new Promise<OutboundResponse>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (r: Omit<OutboundResponse, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, latencyMs: latency() });
      };
      const failed = (error: string) => finish({ status: null, error, retryAfter: null });
      if (this.closed) return failed('the sender is closed');
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return failed('the endpoint URL is not valid');
      }
      const secure = url.protocol === 'https:';
      if (!secure && !(this.opts.allowPrivate && url.protocol === 'http:')) {
        return failed('the endpoint URL is not https');
      }
      if (url.username || url.password) return failed('the endpoint URL carries credentials');
      // The WHATWG parser has already turned `0x7f.1` or `2130706433` into `127.0.0.1`.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (!this.opts.allowPrivate && isIP(literal)) {
        const why = refusedAddress(literal);
        if (why) return failed(`refused: ${why}`);
      }
      const body = Buffer.from(req.body, 'utf8');
      const options: https.RequestOptions & { connectTimeoutMs: number } = {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...req.headers, 'content-length': String(body.length) },
        maxHeaderSize: this.maxHeaderBytes,
        insecureHTTPParser: false,
        connectTimeoutMs: req.timeoutMs,
      };
      let request: http.ClientRequest;
      try {
        request = (secure ? https : http).request(url, options);
      } catch {
        // A header value the HTTP layer will not send (a newline, say): ours, never the receiver's.
        return failed('the request could not be built');
      }
      let status: number | null = null;
      let retryAfter: string | null = null;
      timer = setTimeout(() => {
        // The status line arrived in time: that is the answer, a body still trickling is not.
        if (status !== null) finish({ status, error: null, retryAfter });
        request.destroy(new TimeoutError(req.timeoutMs));
      }, req.timeoutMs);
      request.on('error', (err) => {
        // After the status line, a reset or abort mid-body does not change the answer.
        if (status !== null) finish({ status, error: null, retryAfter });
        else failed(describe(err, req.timeoutMs, this.maxHeaderBytes));
      });
      request.on('response', (res) => {
        status = res.statusCode ?? null;
        retryAfter = header(res.headers['retry-after']);
        const answer = () => finish({ status, error: null, retryAfter });
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status is the answer. Drop the connection rather than read a flood.
          if (read > this.maxResponseBytes) {
            answer();
            res.destroy();
          }
        });
        res.on('end', answer);
        res.on('error', answer);
        res.on('close', answer);
      });
      request.end(body);
    });
  }

  /** Ends every socket: idle, busy and still connecting. Later sends fail at once. */
  async close(): Promise<void> {
    this.closed = true;
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    for (const s of this.connecting) s.destroy();
    this.connecting.clear();
  }
}

type ConnectCallback = (err: Error | null, stream: Duplex) => void;
/** The agent's callback takes no stream with an error (Node's own code calls it so). */
const fail = (cb: ConnectCallback | undefined, err: Error) =>
  (cb as ((err: Error) => void) | undefined)?.(err);

class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}
class RefusedError extends Error {}
class ClosedError extends Error {
  constructor() {
    super('the sender is closed');
  }
}
const refused = (why: string): Error => new RefusedError(`refused: ${why}`);

const header = (v: string | string[] | undefined): string | null =>
  Array.isArray(v) ? (v[0] ?? null) : (v ?? null);

/** An error in words a customer can act on; never a stack, never a message we did not write. */
function describe(err: Error, timeoutMs: number, maxHeaderBytes: number): string {
  if (err instanceof TimeoutError) return `timeout: no complete answer within ${timeoutMs} ms`;
  if (err instanceof RefusedError || err instanceof ClosedError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
      return 'the host name does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    case 'HPE_HEADER_OVERFLOW':
      return `the response headers are larger than ${maxHeaderBytes} bytes`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS error (${code}): the certificate does not name this host`;
    default:
      if (code?.startsWith('HPE_')) return `the answer is not valid HTTP (${code})`;
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || /certificate|tls|ssl/i.test(err.message)) {
        return `TLS error (${code ?? 'handshake failed'})`;
      }
      return code ? `connection error (${code})` : 'connection error';
  }
}

/** How long registration waits for DNS before calling the name unresolvable. */
export const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * All addresses of a host name (registration's SSRF check). A resolver that does not answer in
 * `timeoutMs` is a name that does not resolve: a create or PATCH must not hang on someone's DNS.
 * `lookup` is replaceable for tests only.
 */
export const resolveHost = (
  host: string,
  opts: { timeoutMs?: number; lookup?: typeof dnsLookup } = {},
): Promise<string[]> =>
  new Promise((resolve, reject) => {
    const ms = opts.timeoutMs ?? RESOLVE_TIMEOUT_MS;
    const timer = setTimeout(() => reject(new Error(`${host} did not resolve within ${ms} ms`)), ms);
    (opts.lookup ?? dnsLookup)(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.ts';
import { answerConnect, writeError } from './protocol-errors.ts';

/*
 * What every request meets before the fast path or the framework (decision 0017):
 * - while the server closes, 503 `service_unavailable` with the documented body (Fastify's own
 *   503 has a body of its own);
 * - an HTTP/1.1 request without Host is 400 with the documented body (Node's check answers with an
 *   empty body, so it is switched off and done here);
 * - a request that announces a body is answered with `Connection: close` unless its body has fully
 *   arrived by the time the answer starts: a GET, an unknown route or an unauthenticated request is
 *   answered at once, and the connection does not stay open to swallow the rest of a slow body.
 * And the server's clocks: headers must arrive within `headersTimeoutMs` and the whole request,
 * body included, within `requestTimeoutMs`, or the answer is 408 `request_timeout`.
 */

/** Whether the request says a body follows. */
export const announcesBody = (req: IncomingMessage): boolean => {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
};

/** How many Host headers a request carries (rawHeaders alternates names and values). */
export function hostCount(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // A length test first: it rules out almost every header without touching its characters.
    if (name.length === 4 && name.toLowerCase() === 'host') n++;
  }
  return n;
}

const EXPECTS_CONTINUE = Symbol('expectsContinue');
type ExpectsContinue = IncomingMessage & { [EXPECTS_CONTINUE]?: boolean };

/** How long, and how many bytes, a closing connection keeps reading what the client still sends. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGERS = Symbol('lingers');

/**
 * A lingering close (as nginx's `lingering_close`). When a request is answered before its body has
 * arrived (a refusal, a 413 on Content-Length), Node closes the socket as soon as the answer is
 * written; the client is still sending, and the bytes that arrive after the close make the kernel
 * reset the connection, which can destroy the answer before the client reads it. So the socket
 * sends its FIN after the answer and then keeps reading, discarding, until the client closes, for at
 * most LINGER_MS and LINGER_BYTES, and only then is destroyed.
 */
function lingerBeforeClosing(socket: Socket): void {
  const s = socket as Socket & { [LINGERS]?: boolean; destroySoon?: () => void };
  if (s[LINGERS] || typeof s.destroySoon !== 'function') return;
  s[LINGERS] = true;
  s.destroySoon = () => {
    if (s.destroyed) return;
    s.end();
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      s.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    s.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) stop();
    });
    s.once('end', stop);
    s.once('error', stop);
    s.resume();
  };
}

/** While the server closes, how often connections whose last answer has gone out are closed. */
const CLOSE_IDLE_EVERY_MS = 50;

export interface FrontDoor {
  /** True when it answered the request itself (the caller then does nothing more with it). */
  answers(req: IncomingMessage, res: ServerResponse): boolean;
  /** Sets the server's timeouts and the framework hooks this needs; call once, before routes. */
  install(app: FastifyInstance, config: Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs'>): void;
}

export function createFrontDoor(): FrontDoor {
  let closing = false;
  const restoreKeepAlive = (res: ServerResponse, keepAlive: boolean) => () => {
    res.shouldKeepAlive = keepAlive;
  };
  return {
    answers(req, res) {
      if (closing) {
        writeError(res, 'service_unavailable', 'The server is shutting down; retry shortly.');
        return true;
      }
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
        writeError(res, 'invalid_parameter', 'The request has no Host header (required in HTTP/1.1).');
        return true;
      }
      if (hostCount(req.rawHeaders) > 1) {
        // RFC 9112 §3.2: a server MUST answer 400 to more than one Host (Node keeps the first).
        writeError(res, 'invalid_parameter', 'The request has more than one Host header.');
        return true;
      }
      if (announcesBody(req)) {
        if (res.shouldKeepAlive) {
          // Closed after the answer unless the body has been read by then.
          res.shouldKeepAlive = false;
          req.once('end', restoreKeepAlive(res, true));
        }
        lingerBeforeClosing(req.socket);
      }
      return false;
    },
    install(app, config) {
      // Both are options of createServer in Node's typings, but plain properties Node reads later.
      const server = app.server as Server & {
        connectionsCheckingInterval: number;
        requireHostHeader: boolean;
      };
      server.headersTimeout = config.headersTimeoutMs;
      server.requestTimeout = config.requestTimeoutMs;
      // Node checks both clocks every connectionsCheckingInterval (default 30 s): tighter, so a
      // timeout is kept to within a second. Read by Node when the server starts listening.
      server.connectionsCheckingInterval = Math.max(
        50,
        Math.min(1000, Math.floor(config.headersTimeoutMs / 4)),
      );
      server.requireHostHeader = false;
      server.on('connect', answerConnect);
      // Node answers an Expect other than 100-continue with a bare 417. HTTP lets a server ignore an
      // expectation it does not know (RFC 9110 §10.1.1), so the request is answered as usual.
      server.on('checkExpectation', (req, res) => server.emit('request', req, res));
      // `Expect: 100-continue`: Node would send "100 Continue" at once, inviting the body before
      // anything is checked. Instead the request goes through as usual and the body is invited
      // only when a route is about to read it (preParsing below), so a refusal (401, 403, 429,
      // 413, 503) reaches the client before it sends a byte of the body.
      server.on('checkContinue', (req, res) => {
        (req as ExpectsContinue)[EXPECTS_CONTINUE] = true;
        server.emit('request', req, res);
      });
      app.addHook('preClose', (done) => {
        closing = true;
        // server.close() closes the connections idle at that moment; one whose request is still
        // in flight stays keep-alive after its answer, and would hold the stop until the client
        // lets it go (Node's agent: 5 s; others: never, up to the grace). So, until the server has
        // closed, connections that have gone idle are closed too, every CLOSE_IDLE_EVERY_MS.
        const sweep = setInterval(() => server.closeIdleConnections(), CLOSE_IDLE_EVERY_MS);
        sweep.unref();
        server.once('close', () => clearInterval(sweep));
        done();
      });
      // An unknown route takes no body: answer its 404 before Fastify would read one.
      app.addHook('preParsing', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
        if (!(request.is404 && announcesBody(request.raw))) {
          const raw = request.raw as ExpectsContinue;
          if (raw[EXPECTS_CONTINUE] && !reply.sent) {
            raw[EXPECTS_CONTINUE] = false;
            reply.raw.writeContinue();
          }
          return done(null, payload);
        }
        const handler = request.routeOptions.handler as unknown as (
          this: FastifyInstance,
          req: FastifyRequest,
          rep: FastifyReply,
        ) => unknown;
        handler.call(request.server, request, reply);
      });
    },
  };
}

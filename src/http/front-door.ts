import type { IncomingMessage, Server, ServerResponse } from 'node:http';
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
      if (announcesBody(req) && res.shouldKeepAlive) {
        // Closed after the answer unless the body has been read by then.
        res.shouldKeepAlive = false;
        req.once('end', restoreKeepAlive(res, true));
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
      app.addHook('preClose', (done) => {
        closing = true;
        done();
      });
      // An unknown route takes no body: answer its 404 before Fastify would read one.
      app.addHook('preParsing', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
        if (!(request.is404 && announcesBody(request.raw))) return done(null, payload);
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

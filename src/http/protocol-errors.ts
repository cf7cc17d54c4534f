import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBodyText } from './error-body.ts';
import { type ErrorCode, STATUS_OF } from './error-status.ts';
import { nextRequestId, requestIdOf } from './request-id.ts';

/*
 * Answers to requests that never become a request: bytes Node's HTTP parser refuses, headers too
 * large, a request that does not arrive in time. Node (or Fastify's default handler) would write
 * its own body; these carry the documented error body and an x-request-id like every other answer
 * (decision 0017), and close the connection, since what follows on it cannot be trusted.
 */

/** What a parser error means to the client. */
function describe(errCode: string): { code: ErrorCode; message: string } {
  switch (errCode) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'headers_too_large',
        message: 'The request headers are too large (at most 16 KiB in all).',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { code: 'request_timeout', message: 'The request did not arrive in time.' };
    case 'HPE_INVALID_METHOD':
      return { code: 'invalid_parameter', message: 'The request method is not valid HTTP.' };
    case 'HPE_INVALID_URL':
      return {
        code: 'invalid_parameter',
        message: 'The request target is not valid: spaces and control characters must be percent-encoded.',
      };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { code: 'invalid_parameter', message: 'The Content-Length header is not valid.' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { code: 'invalid_parameter', message: 'The chunked request body is not valid.' };
    default:
      return { code: 'invalid_parameter', message: 'The request is not valid HTTP.' };
  }
}

/** The whole HTTP/1.1 response for an error, as bytes to write straight to a socket. */
export function rawErrorResponse(code: ErrorCode, message: string): string {
  const status = STATUS_OF[code];
  const requestId = nextRequestId();
  const body = errorBodyText(code, message, status, requestId);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    `x-request-id: ${requestId}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n` +
    'connection: close\r\n\r\n' +
    body
  );
}

/** A response under way on this socket: a second one must not be written into it. */
const answering = (socket: Socket): boolean =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;

/** Fastify's `clientErrorHandler`: Node's server emits 'clientError' for what its parser refuses. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable && !answering(socket)) {
    const { code, message } = describe(err.code ?? '');
    socket.end(rawErrorResponse(code, message));
  }
  socket.destroySoon();
}

/**
 * Node hands a CONNECT request (a proxy tunnel) to the server's 'connect' listeners, and with none
 * closes the socket without a word. This is not a proxy: the answer is the 404 any method no route
 * takes gets, with the documented body.
 */
export function answerConnect(_req: unknown, socket: Socket): void {
  if (socket.writable)
    socket.end(rawErrorResponse('not_found', 'No route CONNECT: this server is not a proxy.'));
  socket.destroySoon();
}

/** Writes the documented error through a ServerResponse (for answers given before any framework). */
export function writeError(res: ServerResponse, code: ErrorCode, message: string): void {
  const status = STATUS_OF[code];
  // The request was parsed, so a well-formed incoming X-Request-Id is its id here too.
  const requestId = requestIdOf(res.req);
  const body = errorBodyText(code, message, status, requestId);
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    'x-request-id': requestId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

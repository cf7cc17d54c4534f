import net from 'node:net';
import { expect } from 'vitest';

/** One HTTP answer as read off a raw socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (rather than the wait running out). */
  closed: boolean;
  /** Milliseconds from the first byte written to the end of the answer (or to the close). */
  elapsedMs: number;
}

/** The status line, headers and body of the first answer in `data`, or null before its headers end. */
export function parseAnswer(data: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> | null {
  const text = data.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}

export interface RawOptions {
  /** Give up (and destroy the socket) after this long. (Default: 3000) */
  waitMs?: number;
  /** Bytes written after the first chunk, one every `dripEveryMs`, while the socket is open. */
  drip?: { byte: string; everyMs: number };
}

/**
 * Writes bytes to the server as they are (inject() would go around Node's HTTP parser) and reads
 * the first answer: it resolves when the answer's body is complete, the server closes, or the wait
 * runs out.
 */
export function rawRequest(port: number, bytes: string | Buffer, opts: RawOptions = {}): Promise<RawAnswer> {
  const waitMs = opts.waitMs ?? 3000;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    let drip: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearInterval(drip);
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(data);
      if (!answer) {
        return reject(
          new Error(`no HTTP answer (closed=${closed}): ${JSON.stringify(data.toString('utf8'))}`),
        );
      }
      resolve({ ...answer, closed, elapsedMs: Date.now() - started });
    };
    /** True once a whole answer (headers and content-length bytes of body) is in. */
    const complete = (): boolean => {
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) return false;
      const length = /\r\ncontent-length: *(\d+)/i.exec(data.subarray(0, split).toString('latin1'));
      return length !== null && data.length - split - 4 >= Number(length[1]);
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      // Keep reading until the server closes when it said it would; otherwise stop at the answer.
      if (complete() && !/\r\nconnection: *close/i.test(data.toString('latin1'))) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(bytes);
    if (opts.drip) {
      const { byte, everyMs } = opts.drip;
      drip = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(byte);
      }, everyMs);
    }
  });
}

/** Asserts the documented error body, its status and the x-request-id header matching it. */
export function expectErrorAnswer(answer: RawAnswer, status: number, code: string): string {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { error: { request_id: string; message: string } };
  expect(body).toEqual({
    error: { code, message: expect.any(String), status, request_id: expect.any(String) },
  });
  expect(answer.headers['x-request-id']).toBe(body.error.request_id);
  return body.error.message;
}

/** The port of a listening Fastify app's address. */
export const portOf = (base: string): number => Number(new URL(base).port);

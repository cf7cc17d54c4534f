import { Agent, request } from 'node:http';
import { request as requestTls } from 'node:https';

/**
 * The soak's HTTP client: node:http over keep-alive sockets (a few per client, as a real consumer
 * keeps them), every request with a time limit, every answer's body read to the end and kept only
 * as far as the soak looks at it.
 */
export interface Answer {
  /** HTTP status; 0 when the request failed (connection refused or reset, time limit). */
  status: number;
  /** The body (at most BODY_KEPT characters), or the failure's message. */
  body: string;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

/** Enough of a body for the JSON the soak reads (vendor lists, ids) and for an error's example. */
const BODY_KEPT = 256 * 1024;
const TIME_LIMIT_MS = 30_000;

export class Client {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(baseUrl: string, sockets: number) {
    this.base = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  /**
   * Requests sent again after the keep-alive race: the service closed an idle connection (Node's
   * 5 s keepAliveTimeout) just as this client wrote the next request on it, which then fails with
   * ECONNRESET before any answer. Every keep-alive client meets it; Node's documentation answers it
   * by sending the request again when it went out on a reused socket (`req.reusedSocket`), and so
   * do browsers. Counted and reported, not hidden: a reset on a fresh connection, or after an
   * answer began, is still an error.
   */
  keepAliveRetries = 0;

  async send(
    method: string,
    path: string,
    headers: Record<string, string | number>,
    body?: Buffer | string,
  ): Promise<Answer> {
    const first = await this.attempt(method, path, headers, body);
    if (!first.raced) return first.answer;
    this.keepAliveRetries++;
    return (await this.attempt(method, path, headers, body)).answer;
  }

  private attempt(
    method: string,
    path: string,
    headers: Record<string, string | number>,
    body?: Buffer | string,
  ): Promise<{ answer: Answer; raced: boolean }> {
    const start = performance.now();
    const tls = this.base.protocol === 'https:';
    const make = tls ? requestTls : request;
    return new Promise((resolve) => {
      let settled = false;
      let answered = false;
      const done = (a: Omit<Answer, 'ms'>, raced = false) => {
        if (settled) return;
        settled = true;
        resolve({ answer: { ...a, ms: performance.now() - start }, raced });
      };
      const req = make(
        {
          protocol: this.base.protocol,
          host: this.base.hostname,
          port: this.base.port || (tls ? 443 : 80),
          path: this.base.pathname.replace(/\/$/, '') + path,
          method,
          ...(tls ? {} : { agent: this.agent }),
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
          timeout: TIME_LIMIT_MS,
        },
        (res) => {
          answered = true;
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            if (text.length < BODY_KEPT) text += c;
          });
          res.on('end', () => done({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
          res.on('error', (e) => done({ status: 0, body: e.message, headers: {} }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${TIME_LIMIT_MS / 1000} s`)));
      req.on('error', (e) => {
        const code = (e as NodeJS.ErrnoException).code;
        done(
          { status: 0, body: `${code ?? ''} ${e.message}`.trim(), headers: {} },
          !answered && req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE'),
        );
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The JSON of a 2xx answer, or an error naming the request and what came back. */
export function json<T>(a: Answer, what: string): T {
  if (a.status < 200 || a.status >= 300) throw new Error(`${what}: HTTP ${a.status} ${a.body.slice(0, 300)}`);
  return JSON.parse(a.body) as T;
}

import { connect } from 'node:net';

/**
 * A request as bytes on the wire. Every string here is a byte string (one char = one byte, latin1),
 * so a generator can put anything on the wire: raw spaces, NULs, invalid UTF-8, bare LFs. Node's
 * `fetch` and `http.request` refuse or normalize most of these, hence a socket of our own.
 */
export interface WireRequest {
  method: string;
  /** The request-target exactly as sent (e.g. `/v1/vendors?page=%FF`). */
  target: string;
  /** `HTTP/1.1` unless a protocol case says otherwise. */
  version?: string;
  /** Header lines as [name, value]; sent in order, repeated names allowed. */
  headers: [string, string][];
  /** Sent after the head. Content-Length is added for it unless a header already frames it. */
  body?: string;
  /** Leave out the Host header the client adds otherwise. */
  omitHost?: boolean;
  /** Bytes sent instead of the serialized head and body (malformed framing). */
  raw?: string;
  /** What a protocol case breaks; names its failure class. */
  note?: string;
  /** Send it twice: the second answer (the fast path's, when it can) must equal the first. */
  repeat?: boolean;
}

export interface WireResponse {
  /** 0 when the server closed the connection or timed out without a status line. */
  status: number;
  headers: Map<string, string[]>;
  body: string;
  /** Why there is no (complete) answer, when there is none. */
  failure?: 'timeout' | 'closed-without-answer' | 'unparseable';
  ms: number;
}

/** UTF-8 text → byte string. */
export const utf8 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
/** Byte string → UTF-8 text (invalid sequences become U+FFFD). */
export const fromUtf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');

const framed = (headers: [string, string][]) =>
  headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n.trim()));

export function serialize(req: WireRequest, host: string): string {
  if (req.raw !== undefined) return req.raw;
  const lines = [`${req.method} ${req.target} ${req.version ?? 'HTTP/1.1'}`];
  if (!req.omitHost) lines.push(`Host: ${host}`);
  for (const [n, v] of req.headers) lines.push(`${n}: ${v}`);
  if (!req.headers.some(([n]) => n.toLowerCase() === 'connection')) lines.push('Connection: close');
  if (req.body !== undefined && !framed(req.headers)) lines.push(`Content-Length: ${req.body.length}`);
  return `${lines.join('\r\n')}\r\n\r\n${req.body ?? ''}`;
}

/** Sends one request on a fresh connection and reads until the server closes it or `timeoutMs`. */
export function send(
  port: number,
  req: WireRequest,
  opts: { host?: string; timeoutMs?: number } = {},
): Promise<WireResponse> {
  const host = opts.host ?? '127.0.0.1';
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect({ port, host });
    const finish = (failure?: 'timeout') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks).toString('latin1'), req.method === 'HEAD');
      if (failure && !parsed.complete) parsed.res.failure = 'timeout';
      parsed.res.ms = performance.now() - started;
      resolve(parsed.res);
    };
    const timer = setTimeout(() => finish('timeout'), opts.timeoutMs ?? 5000);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      // Keep-alive answers (a request that asked for it) end at their framing, not at close.
      if (parseResponse(Buffer.concat(chunks).toString('latin1'), req.method === 'HEAD').complete) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', () => finish());
    socket.write(Buffer.from(serialize(req, `${host}:${port}`), 'latin1'), () => {});
  });
}

/** Parses one HTTP/1.x response; `complete` once its body is framed in full. */
export function parseResponse(text: string, head: boolean): { res: WireResponse; complete: boolean } {
  const headers = new Map<string, string[]>();
  const empty = (failure: WireResponse['failure']) => ({
    res: { status: 0, headers, body: '', failure, ms: 0 },
    complete: false,
  });
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return empty(text.length ? 'unparseable' : 'closed-without-answer');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!m) return empty('unparseable');
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(i + 1).trim()]);
  }
  const status = Number(m[1]);
  const rest = text.slice(end + 4);
  const res: WireResponse = { status, headers, body: '', ms: 0 };
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { res, complete: true };
  }
  if ((headers.get('transfer-encoding') ?? []).some((v) => /chunked/i.test(v))) {
    const { body, complete } = dechunk(rest);
    res.body = body;
    return { res, complete };
  }
  const length = headers.get('content-length')?.[0];
  if (length !== undefined) {
    res.body = rest.slice(0, Number(length));
    return { res, complete: rest.length >= Number(length) };
  }
  res.body = rest;
  return { res, complete: false };
}

function dechunk(s: string): { body: string; complete: boolean } {
  let body = '';
  let at = 0;
  for (;;) {
    const eol = s.indexOf('\r\n', at);
    if (eol < 0) return { body, complete: false };
    const size = Number.parseInt(s.slice(at, eol), 16);
    if (Number.isNaN(size)) return { body, complete: false };
    if (size === 0) return { body, complete: true };
    if (s.length < eol + 2 + size) return { body: body + s.slice(eol + 2), complete: false };
    body += s.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

export const header = (res: WireResponse, name: string): string | undefined => res.headers.get(name)?.[0];

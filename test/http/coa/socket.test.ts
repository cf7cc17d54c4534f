import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import {
  expectErrorAnswer,
  parseAnswer,
  portOf,
  type RawAnswer,
  rawRequest,
} from '../hardening/raw-socket.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { VERIFY, type VerificationBody } from './form.ts';

const MAX_BYTES = 256 * 1024;
const BOUNDARY = '----coa-socket-test-boundary';

/** The request line and headers of an upload, and the form's parts before the file's bytes. */
function uploadHead(key: string, headers: Record<string, string>): string {
  const lines = [
    `POST ${VERIFY} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${key}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

const formHead =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="peptide"\r\n\r\nbpc-157\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;

const chunked = (data: Buffer) =>
  Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);

interface StreamAnswer extends RawAnswer {
  /** Bytes of body written when the first byte of the answer arrived. */
  sentWhenAnswered: number;
}

/**
 * Writes `head`, then body chunks from `next()` (until it returns null) paced by the socket's
 * drain, never ending the body, and reads the first answer; records how much body had been
 * written when the answer began.
 */
function streamBody(
  port: number,
  head: string,
  next: () => Buffer | null,
  waitMs = 10_000,
): Promise<StreamAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let sent = 0;
    let sentWhenAnswered = -1;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(data);
      if (!answer) return reject(new Error(`no answer after ${sent} bytes (closed=${closed})`));
      resolve({ ...answer, closed, elapsedMs: Date.now() - started, sentWhenAnswered });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    const pump = () => {
      while (!done && sentWhenAnswered < 0) {
        const chunk = next();
        if (chunk === null) return;
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('data', (chunk) => {
      if (sentWhenAnswered < 0) sentWhenAnswered = sent;
      data = Buffer.concat([data, chunk]);
      const split = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(
        data.subarray(0, Math.max(0, split)).toString('latin1'),
      );
      if (split >= 0 && length && data.length - split - 4 >= Number(length[1])) {
        // Give the server a moment to close, as it should after refusing an unread body.
        setTimeout(() => finish(socket.destroyed || socket.readableEnded), 200);
      }
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(head);
    setImmediate(pump);
  });
}

/**
 * On a real socket: the size limit and the guard refuse before the body is read (an announced
 * 50 MB body gets its 413/403/429 with only a few KB sent, and a chunked body without a length is
 * cut off at the limit); a whole upload through fetch and FormData works.
 */
describe.each(DIALECTS)('POST /v1/coa/verify on a real socket (%s)', (dialect) => {
  let f: CoaFixture;
  let base: string;
  let port: number;
  beforeAll(async () => {
    f = await setupCoa(dialect, { maxBytes: MAX_BYTES });
    base = await f.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = portOf(base);
  });
  afterAll(async () => f?.ctx.close());

  /** A few KB of an announced 50 MB upload, then nothing more. */
  const announced50MB = (key: string) =>
    Buffer.concat([
      Buffer.from(uploadHead(key, { 'Content-Length': String(50 * 1000 * 1000) })),
      Buffer.from(formHead),
      Buffer.alloc(4096, 0x20),
    ]);

  const expectRateHeaders = (a: RawAnswer) => {
    expect(a.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    expect(a.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(a.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  };

  it('a whole upload through fetch and FormData: 200 with the verification and the rate-limit headers', async () => {
    const form = new FormData();
    form.append('file', new Blob([await coa({ batch: 'SOCK-1' })], { type: 'application/pdf' }), 'coa.pdf');
    form.append('peptide', 'bpc-157');
    form.append('vendor', 'aurora');
    const res = await fetch(`${base}${VERIFY}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${f.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
    const v = (await res.json()) as VerificationBody;
    expect(v).toMatchObject({ status: 'pending_review', extracted: { batch: 'SOCK-1' } });
  });

  it('Content-Length of 50 MB: 413 file_too_large after the headers and 4 KB, and the connection closes', async () => {
    const a = await rawRequest(port, announced50MB(f.key), { waitMs: 5000 });
    expectErrorAnswer(a, 413, 'file_too_large');
    expectRateHeaders(a);
    expect(a.closed).toBe(true);
    expect(a.elapsedMs).toBeLessThan(1500);
  });

  /** A chunked upload of `total` bytes of file, ended properly when `end`, else left open. */
  const chunkedUpload = (total: number, end: boolean, waitMs = 10_000) => {
    const slice = Buffer.alloc(16 * 1024, 0x20);
    let written = 0;
    let ended = !end;
    return streamBody(
      port,
      uploadHead(f.key, { 'Transfer-Encoding': 'chunked' }) +
        chunked(Buffer.from(formHead)).toString('latin1'),
      () => {
        if (written < total) {
          written += slice.length;
          return chunked(slice);
        }
        if (ended) return null;
        ended = true;
        return Buffer.concat([chunked(Buffer.from(`\r\n--${BOUNDARY}--\r\n`)), Buffer.from('0\r\n\r\n')]);
      },
      waitMs,
    );
  };

  it('a chunked upload without Content-Length that passes the limit: 413', async () => {
    const a = await chunkedUpload(4 * MAX_BYTES, true);
    expectErrorAnswer(a, 413, 'file_too_large');
    expectRateHeaders(a);
  });

  it('a chunked upload without Content-Length is refused at the limit, before its body ends', async () => {
    const total = 16 * MAX_BYTES;
    const a = await chunkedUpload(total, false, 3000);
    expectErrorAnswer(a, 413, 'file_too_large');
    // Refused when the limit was passed, not when the (never finished) body ended.
    expect(a.sentWhenAnswered).toBeGreaterThan(MAX_BYTES);
    expect(a.sentWhenAnswered).toBeLessThan(total);
    // And the server stops reading: it closes the connection.
    expect(a.closed).toBe(true);
  });

  it('a pro key with an announced 50 MB body: 403 plan_required at once', async () => {
    const a = await rawRequest(port, announced50MB(await f.ctx.keyFor('pro')), { waitMs: 5000 });
    expectErrorAnswer(a, 403, 'plan_required');
    expectRateHeaders(a);
    expect(a.elapsedMs).toBeLessThan(1500);
  });

  it('no key with an announced 50 MB body: 401 at once', async () => {
    const head = announced50MB(f.key)
      .toString('latin1')
      .replace(/Authorization: Bearer \S+\r\n/, '');
    const a = await rawRequest(port, Buffer.from(head, 'latin1'), { waitMs: 5000 });
    expectErrorAnswer(a, 401, 'invalid_api_key');
    expect(a.elapsedMs).toBeLessThan(1500);
  });

  it('over the rate limit with an announced 50 MB body: 429 at once', async () => {
    const key = await f.ctx.keyFor('custom', 'socket-limited', { rateLimitA: 1 });
    const first = await fetch(`${base}/v1/peptides`, { headers: { authorization: `Bearer ${key}` } });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const a = await rawRequest(port, announced50MB(key), { waitMs: 5000 });
    expectErrorAnswer(a, 429, 'rate_limited');
    expect(a.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(a.elapsedMs).toBeLessThan(1500);
  });

  it('the service still answers uploads after the refusals', async () => {
    const form = new FormData();
    form.append('file', new Blob([await coa({ batch: 'SOCK-2' })], { type: 'application/pdf' }), 'coa.pdf');
    form.append('peptide', 'bpc-157');
    const res = await fetch(`${base}${VERIFY}`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${f.key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as VerificationBody).extracted.batch).toBe('SOCK-2');
  });
});

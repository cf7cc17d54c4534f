import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { portOf } from '../hardening/raw-socket.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { coaParts, multipart, VERIFY } from './form.ts';

const MAX_BYTES = 1_000_000;

interface Exchange {
  /** Everything the server sent, as text. */
  received: string;
  /** Body bytes the client had written when the first response bytes arrived (-1: none came). */
  sentBeforeAnswer: number;
  /** How the connection ended for the client. */
  ended: 'end' | 'reset' | 'timeout';
}

/**
 * Sends the head, then (unless waiting for 100 Continue) the body in 64 KB writes as fast as the
 * socket takes them, reading all the while: what a client such as curl does.
 */
function exchange(
  port: number,
  head: string,
  body: Buffer,
  opts: { expectContinue?: boolean; timeoutMs?: number } = {},
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let sentBeforeAnswer = -1;
    let bodyStarted = false;
    const timer = setTimeout(() => finish('timeout'), opts.timeoutMs ?? 10_000);
    function finish(ended: Exchange['ended']) {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, sentBeforeAnswer, ended });
    }
    const pump = () => {
      bodyStarted = true;
      while (sent < body.length && !socket.destroyed) {
        const chunk = body.subarray(sent, sent + 65_536);
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      if (!opts.expectContinue) pump();
    });
    socket.on('data', (d) => {
      if (sentBeforeAnswer < 0) sentBeforeAnswer = sent;
      received += d.toString('latin1');
      if (opts.expectContinue && !bodyStarted && received.startsWith('HTTP/1.1 100')) pump();
    });
    socket.on('end', () => finish('end'));
    socket.on('error', () => finish('reset'));
  });
}

const headOf = (key: string, contentType: string, length: number, expectContinue = false) =>
  `POST ${VERIFY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
  `Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n` +
  (expectContinue ? 'Expect: 100-continue\r\n' : '') +
  '\r\n';

describe.each(DIALECTS)('uploads and Expect: 100-continue, refusals that arrive (%s)', (dialect) => {
  let f: CoaFixture;
  let port: number;
  beforeAll(async () => {
    f = await setupCoa(dialect, { maxBytes: MAX_BYTES });
    port = portOf(await f.ctx.app.listen({ port: 0, host: '127.0.0.1' }));
    await f.ctx.container.pdf.warm();
  });
  afterAll(async () => f?.ctx.close());

  it('a too-large upload that expects 100-continue is refused before it is invited to send a byte', async () => {
    const big = Buffer.alloc(3 * MAX_BYTES, 0x20);
    const x = await exchange(port, headOf(f.key, 'multipart/form-data; boundary=x', big.length, true), big, {
      expectContinue: true,
    });
    expect(x.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(x.received).not.toContain('100 Continue');
    expect(x.received).toContain('"code":"file_too_large"');
    expect(x.sentBeforeAnswer).toBe(0);
  });

  it('a refused key that expects 100-continue is answered 403 without inviting the body', async () => {
    const pro = await f.ctx.keyFor('pro');
    const body = Buffer.alloc(200_000, 0x20);
    const x = await exchange(port, headOf(pro, 'multipart/form-data; boundary=x', body.length, true), body, {
      expectContinue: true,
    });
    expect(x.received).toMatch(/^HTTP\/1\.1 403 /);
    expect(x.received).not.toContain('100 Continue');
    expect(x.sentBeforeAnswer).toBe(0);
  });

  it('an upload that expects 100-continue is invited, then read and answered', async () => {
    const form = multipart(
      coaParts({ file: await coa({ batch: 'CONT-1' }), peptide: 'bpc-157', vendor: 'aurora' }),
    );
    const x = await exchange(port, headOf(f.key, form.contentType, form.body.length, true), form.body, {
      expectContinue: true,
    });
    expect(x.received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(x.received).toContain('"status":"pending_review"');
  });

  it('a too-large upload sent without waiting always gets its 413 (the connection lingers, no reset)', async () => {
    // The client keeps writing after the answer; a plain close would reset the connection and could
    // destroy the answer before the client reads it.
    const big = Buffer.alloc(4 * MAX_BYTES, 0x20);
    for (let i = 0; i < 15; i++) {
      const x = await exchange(port, headOf(f.key, 'multipart/form-data; boundary=x', big.length), big);
      expect(x.received, `attempt ${i}`).toMatch(/^HTTP\/1\.1 413 /);
      expect(x.received).toContain('"code":"file_too_large"');
      expect(x.received).toMatch(/connection: close/i);
      expect(x.ended, `attempt ${i}`).toBe('end');
    }
  });
});

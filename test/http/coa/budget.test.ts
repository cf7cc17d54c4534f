import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { expectErrorAnswer, portOf, rawRequest } from '../hardening/raw-socket.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { coaParts, multipart, VERIFY } from './form.ts';

const MAX_BYTES = 64 * 1024;
/** Room for one upload of ~100 KB and a small one, not for two large ones (COA_INFLIGHT_MB must hold MAX_BYTES + the 64 KB form allowance). */
const INFLIGHT = 150 * 1024;

/** The request line and headers of an upload of `body`, with its Content-Length. */
const requestOf = (key: string, body: Buffer, contentType: string): Buffer =>
  Buffer.concat([
    Buffer.from(
      `POST ${VERIFY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
    ),
    body,
  ]);

/** A CoA padded (a comment after %%EOF) to `size` bytes. */
async function paddedCoa(batch: string, size: number): Promise<Uint8Array> {
  const base = Buffer.from(await coa({ batch }));
  const pad = Buffer.alloc(size - base.length, 0x20);
  pad[0] = 0x25;
  return new Uint8Array(Buffer.concat([base, pad]));
}

/**
 * COA_INFLIGHT_MB: upload bodies held at once are bounded. A request reserves its Content-Length
 * before its body is read; one that would pass the budget is 503 with Retry-After, and a request
 * that ends — answered or abandoned half-way — gives its reservation back.
 */
describe.each(DIALECTS)('CoA uploads in flight (%s)', (dialect) => {
  let f: CoaFixture;
  let port: number;
  beforeAll(async () => {
    f = await setupCoa(dialect, { maxBytes: MAX_BYTES, maxInflightBytes: INFLIGHT });
    port = portOf(await f.ctx.app.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => f?.ctx.close());

  /** Opens an upload announcing `announced` bytes, sends its first KB, and leaves it open. */
  const holdOpen = async (announced: number): Promise<net.Socket> => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const { contentType } = multipart([]);
    socket.write(
      `POST ${VERIFY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${f.key}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${announced}\r\n\r\n`,
    );
    socket.write(Buffer.alloc(1024, 0x20));
    // Let the server admit it and reserve its bytes.
    await sleep(150);
    return socket;
  };

  const uploadOf = async (batch: string) => {
    const { body, contentType } = multipart(
      coaParts({ file: await paddedCoa(batch, 60 * 1024), peptide: 'bpc-157', vendor: 'aurora' }),
    );
    return requestOf(f.key, body, contentType);
  };

  it('while a 100 KB upload is in flight, a 60 KB one is 503 service_unavailable with Retry-After', async () => {
    const held = await holdOpen(100 * 1024);
    try {
      const a = await rawRequest(port, await uploadOf('BUDGET-1'), { waitMs: 5000 });
      expectErrorAnswer(a, 503, 'service_unavailable');
      expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(a.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(await f.batchState('BUDGET-1')).toBe('missing');
    } finally {
      held.destroy();
    }
  });

  it('an upload abandoned half-way gives its reservation back', async () => {
    await sleep(150);
    const a = await rawRequest(port, await uploadOf('BUDGET-2'), { waitMs: 10_000 });
    expect(a.status, a.body).toBe(200);
    expect(JSON.parse(a.body)).toMatchObject({ status: 'pending_review', extracted: { batch: 'BUDGET-2' } });
  });

  it('answered uploads give theirs back: many in a row, each within the budget alone', async () => {
    for (let i = 3; i < 8; i++) {
      const a = await rawRequest(port, await uploadOf(`BUDGET-${i}`), { waitMs: 10_000 });
      expect(a.status, a.body).toBe(200);
    }
    // And refusals too (a 400 after the body was read).
    for (let i = 0; i < 5; i++) {
      const { body, contentType } = multipart(
        coaParts({ file: await paddedCoa('BUDGET-X', 60 * 1024), peptide: 'no-such-peptide' }),
      );
      expect((await rawRequest(port, requestOf(f.key, body, contentType))).status).toBe(400);
    }
    const last = await rawRequest(port, await uploadOf('BUDGET-9'), { waitMs: 10_000 });
    expect(last.status, last.body).toBe(200);
  });
});

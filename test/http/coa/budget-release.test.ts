import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { portOf } from '../hardening/raw-socket.ts';
import { type CoaFixture, coa, setupCoa } from './fixtures.ts';
import { coaParts, multipart, VERIFY } from './form.ts';

const MAX_BYTES = 64 * 1024;
/** Room for a little more than one upload of each of two accounts. */
const INFLIGHT = 300 * 1024;

async function padded(batch: string, size: number): Promise<Uint8Array> {
  const base = Buffer.from(await coa({ batch }));
  const pad = Buffer.alloc(size - base.length, 0x20);
  pad[0] = 0x25;
  return new Uint8Array(Buffer.concat([base, pad]));
}

describe.each(DIALECTS)('the upload budget is given back and shared fairly (%s)', (dialect) => {
  let f: CoaFixture;
  let port: number;
  beforeAll(async () => {
    f = await setupCoa(dialect, { maxBytes: MAX_BYTES, maxInflightBytes: INFLIGHT });
    port = portOf(await f.ctx.app.listen({ port: 0, host: '127.0.0.1' }));
    await f.ctx.container.pdf.warm();
  });
  afterAll(async () => f?.ctx.close());

  const requestOf = (key: string, form: { body: Buffer; contentType: string }) =>
    Buffer.concat([
      Buffer.from(
        `POST ${VERIFY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: ${form.contentType}\r\nContent-Length: ${form.body.length}\r\n\r\n`,
      ),
      form.body,
    ]);

  it('a client that sends its whole body and leaves gives its reservation back', async () => {
    for (let i = 0; i < 8; i++) {
      const form = multipart(
        coaParts({ file: await padded(`GONE-${i}`, 60 * 1024), peptide: 'bpc-157', vendor: 'aurora' }),
      );
      const socket = net.connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(requestOf(f.key, form));
      await sleep(20);
      socket.destroy();
    }
    await sleep(1500);
    // Eight abandoned 60 KB uploads would have held 480 KB of a 300 KB budget.
    const form = multipart(
      coaParts({ file: await padded('STAYED', 60 * 1024), peptide: 'bpc-157', vendor: 'aurora' }),
    );
    const res = await fetch(`http://127.0.0.1:${port}${VERIFY}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.key}`, 'content-type': form.contentType },
      body: form.body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await res.arrayBuffer();
  });

  it('one account holding its share leaves room for another account', async () => {
    const held: net.Socket[] = [];
    // Announce large bodies and send only the head: the account reaches its share (a quarter of
    // the budget, at least one upload), and its next announcement is refused.
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST ${VERIFY} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${f.key}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${MAX_BYTES + 64 * 1024 - 100}\r\n\r\n`,
      );
      held.push(socket);
    }
    await sleep(300);
    try {
      const other = await f.ctx.keyFor('enterprise', 'budget-other-account');
      const form = multipart(
        coaParts({ file: await coa({ batch: 'FAIR-1' }), peptide: 'bpc-157', vendor: 'aurora' }),
      );
      const res = await fetch(`http://127.0.0.1:${port}${VERIFY}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other}`, 'content-type': form.contentType },
        body: form.body,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      await res.arrayBuffer();
      // The holder's own next upload is refused, with Retry-After.
      const mine = await fetch(`http://127.0.0.1:${port}${VERIFY}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.key}`, 'content-type': form.contentType },
        body: form.body,
      });
      expect(mine.status).toBe(503);
      expect(mine.headers.get('retry-after')).toBe('2');
      expect(((await mine.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
    } finally {
      for (const s of held) s.destroy();
    }
  });
});

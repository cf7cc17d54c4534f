import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.ts';
import { PipelinedClient, rawGet } from '../../support/pipelined-client.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The live heap after full collections, in MiB. */
function liveHeapMiB(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** Several pipelining connections, each sending batches back to back. */
async function sendAll(port: number, requests: string[], connections = 4, batch = 200) {
  const clients = await Promise.all(Array.from({ length: connections }, () => PipelinedClient.open(port)));
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (;;) {
        const start = next;
        if (start >= requests.length) return;
        next = Math.min(requests.length, start + batch);
        for (const r of await client.send(requests.slice(start, next)))
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  for (const c of clients) c.close();
  return statuses;
}

/** `Bearer` in 64 spellings of its case. */
const spellings = Array.from({ length: 64 }, (_, i) =>
  [...'Bearer'].map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c.toLowerCase())).join(''),
);

/**
 * What a hostile client found on a running service (issue [5]): caches keyed by the raw
 * Authorization header or URL, filled before or without admission, grew without a byte bound until
 * the process died. Nothing an unauthenticated or refused request sends may be remembered, and what
 * admitted requests leave behind is bounded in bytes. Stated bound: the live heap grows by less than
 * 24 MiB over each attack (the caches' own byte caps are far above what these send if they leaked:
 * 100,000 headers of ~0.8 KB, 8,000 URLs of 15 KB).
 */
describe('memory under hostile headers and URLs', () => {
  let ctx: TestContext;
  let port: number;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    await ctx.load([
      { type: 'vendor', slug: 'apex', name: 'Apex', location: 'Canada', verified: true },
      ...['coa', 'purity', 'sentiment', 'transparency', 'experience'].map((field) => ({
        type: 'override',
        vendorSlug: 'apex',
        field,
        value: 90,
        reason: 'test',
      })),
    ]);
    key = await ctx.keyFor('custom', undefined, { rateLimitA: 10_000_000, rateLimitB: 1_000_000 });
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(async () => ctx?.close());

  it('100,000 case-and-spacing variants of one valid key leave the heap bounded and the key served', async () => {
    const requests: string[] = [];
    for (let i = 0; requests.length < 100_000; i++) {
      const spaces = ' '.repeat(1 + Math.floor(i / spellings.length));
      requests.push(rawGet('/v1/vendors/apex', { authorization: `${spellings[i % 64]}${spaces}${key}` }));
    }
    const before = liveHeapMiB();
    const statuses = await sendAll(port, requests);
    const after = liveHeapMiB();
    // Every spelling is a valid key: all of them are answered, and none of them is remembered.
    expect(statuses.get(200)).toBe(100_000);
    expect(after - before).toBeLessThan(24);
    const [ok] = await sendAll(
      port,
      [rawGet('/v1/vendors/apex', { authorization: `Bearer ${key}` })],
      1,
    ).then((m) => [...m.keys()]);
    expect(ok).toBe(200);
  }, 120_000);

  it('unauthenticated and refused requests with large distinct URLs are not remembered', async () => {
    const pad = 'x'.repeat(15_000);
    const requests: string[] = [];
    for (let i = 0; i < 8_000; i++) {
      // Half are long URLs of no route's shape, half well-formed cached-read URLs of the largest size.
      const url =
        i % 2 === 0
          ? `/api/v1/vendors?limit=${1 + (i % 200)}&offset=${i}&pad${i}=${pad}`
          : `/api/v1/batches/${'B'.repeat(500)}${i}`;
      // No key, an unknown key, a malformed one: every one of them is refused.
      const auth = [undefined, `Bearer prk_live_${String(i).padStart(32, 'Z')}`, 'Basic abc'][i % 3];
      requests.push(rawGet(url, auth === undefined ? {} : { authorization: auth }));
    }
    const before = liveHeapMiB();
    const statuses = await sendAll(port, requests, 2, 50);
    const after = liveHeapMiB();
    expect([...statuses.keys()].every((s) => s === 400 || s === 401)).toBe(true);
    expect(after - before).toBeLessThan(24);
  }, 120_000);
});

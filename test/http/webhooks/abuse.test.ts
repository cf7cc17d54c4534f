import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANUAL_SEND_LIMITS } from '../../../src/core/webhooks/manual-sends.ts';
import { DIALECTS } from '../../support/databases.ts';
import { createEndpoint, expectError, privateUrls, Receiver, type Setup, setup } from './helpers.ts';

/**
 * What a hostile account tried against webhooks, as tests: racing the endpoint cap, using test and
 * redeliver as a request cannon, and growing one message's attempt log without end.
 */
describe.each(DIALECTS)('webhooks under abuse (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  beforeAll(async () => {
    s = await setup(dialect, privateUrls({ maxEndpointsPerAccount: 5 }));
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx?.close();
    await s?.ctx.close();
  });

  it('concurrent creates cannot pass the endpoint cap together', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => s.b.call('POST', '/webhooks', { url: rx.url, events: ['*'] })),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(25);
    expect((await s.b.call('GET', '/webhooks')).json().total).toBe(5);
  });

  it(`test and redeliver: at most ${MANUAL_SEND_LIMITS.perAccountInFlight} at a time per account (429, nothing sent or written)`, async () => {
    // A receiver that holds every request until released.
    const held: ServerResponse[] = [];
    const slow = createServer((_req: IncomingMessage, res: ServerResponse) => held.push(res));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const e = await createEndpoint(s.a, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hold`,
        events: ['*'],
      });
      const first = Array.from({ length: MANUAL_SEND_LIMITS.perAccountInFlight }, () =>
        s.a.call('POST', `/webhooks/${e.id}/test`),
      );
      await expect.poll(() => held.length, { timeout: 5000 }).toBe(MANUAL_SEND_LIMITS.perAccountInFlight);
      const refused = await s.a.call('POST', `/webhooks/${e.id}/test`);
      expectError(refused, 429, 'rate_limited');
      expect(refused.headers['retry-after']).toBe('1');
      expect(held).toHaveLength(MANUAL_SEND_LIMITS.perAccountInFlight);
      // Another account is not held back by this one (b has endpoints from the cap test, at rx).
      const [bEndpoint] = (await s.b.call('GET', '/webhooks')).json().data;
      expect(bEndpoint).toBeDefined();
      expect((await s.b.call('POST', `/webhooks/${bEndpoint.id}/test`)).statusCode).toBe(200);
      for (const res of held) res.writeHead(204).end();
      for (const r of await Promise.all(first)) expect(r.statusCode).toBe(200);
      const log = (await s.a.call('GET', `/webhooks/${e.id}/deliveries`)).json();
      expect(log.total).toBe(MANUAL_SEND_LIMITS.perAccountInFlight);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });

  it(`test and redeliver: at most ${MANUAL_SEND_LIMITS.perAccountPerMinute} a minute per account, then 429 with Retry-After`, async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    s.ctx.clock.advance(61_000);
    for (let i = 0; i < MANUAL_SEND_LIMITS.perAccountPerMinute; i++) {
      expect((await s.a.call('POST', `/webhooks/${e.id}/test`)).statusCode).toBe(200);
    }
    const before = rx.received.length;
    s.ctx.clock.advance(20_000);
    const refused = await s.a.call('POST', `/webhooks/${e.id}/test`);
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('40');
    expect(rx.received.length).toBe(before);
    s.ctx.clock.advance(40_000);
    expect((await s.a.call('POST', `/webhooks/${e.id}/test`)).statusCode).toBe(200);
  });

  it('the delivery log shows the newest 50 attempts of a message, however many it has', async () => {
    const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
    s.ctx.clock.advance(61_000);
    const t = (await s.a.call('POST', `/webhooks/${e.id}/test`)).json();
    const k = s.ctx.container.store.kysely;
    await k
      .insertInto('webhook_attempts')
      .values(
        Array.from({ length: 80 }, (_, i) => ({
          message_id: t.delivery_id,
          attempted_at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(),
          http_status: 500 + (i % 2),
          latency_ms: i,
          error: 'HTTP 500 (not 2xx)',
          trigger: 'redeliver',
        })),
      )
      .execute();
    const log = (await s.a.call('GET', `/webhooks/${e.id}/deliveries`)).json();
    const d = log.data.find((x: { id: string }) => x.id === t.delivery_id);
    expect(d.attempts).toHaveLength(50);
    // Oldest first within the newest 50: the last of the 80 inserted ends the list.
    expect(d.attempts.at(-1).latency_ms).toBe(79);
    expect(d.attempts[0].latency_ms).toBe(30);
  });
});

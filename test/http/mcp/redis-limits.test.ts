import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '../../../src/adapters/ratelimit/redis-limiter.ts';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { buildApp } from '../../../src/http/app.ts';
import { createTestContext, T0, type TestContext } from '../../support/context.ts';
import { REDIS_URL, redisAvailable } from '../../support/redis.ts';

const available = await redisAvailable('the MCP Redis limits test');
/** Unique per run; everything under it is deleted afterwards. */
const PREFIX = `purerank:test:${randomBytes(8).toString('hex')}:`;

/**
 * With Redis every admission is asynchronous (a round trip): tool calls are still counted once
 * each, lists not at all, and usage records them under Variant A.
 */
describe.skipIf(!available)('/mcp with the Redis limiter', () => {
  let ctx: TestContext;
  let redis: Redis;
  let app: FastifyInstance;
  let client: Client | undefined;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const limiter = new RedisRateLimiter({ redis, clock: ctx.clock, prefix: PREFIX });
    app = await buildApp({ ...ctx.container, limiter }, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    if (redis) {
      const keys = await redis.keys(`${PREFIX}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    await ctx?.close();
  });

  it('two tool calls of a limit of 2 pass, the third is rate_limited; lists are free', async () => {
    const account = await createAccount(ctx.container.store, {
      name: 'mcp-redis',
      plan: 'custom',
      rateLimitA: 2,
    });
    const { key, info } = await ctx.container.accountKeys.create(account.id, null);
    await ctx.container.freshness.refresh();
    const { port } = app.server.address() as AddressInfo;
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    client = new Client({ name: 'redis-test', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBe(7);
    for (let i = 0; i < 2; i++) {
      const r = await client.callTool({ name: 'rank_vendors', arguments: {} });
      expect(r.isError).toBeFalsy();
    }
    const e = await client.callTool({ name: 'rank_vendors', arguments: {} }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(McpError);
    expect((e as McpError).data).toMatchObject({ code: 'rate_limited', status: 429, retry_after: 3600 });
    expect((await client.listTools()).tools.length).toBe(7);
    const series = await ctx.container.usage.hourly(account.id, 1);
    const a = series.find((s) => s.keyId === info.id && s.scope === 'a');
    expect(a?.points).toEqual([{ t: (T0 / HOUR_MS) * HOUR_MS, requests: 2, limited: 1 }]);
  });
});

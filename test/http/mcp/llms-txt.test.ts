import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.ts';

describe('/llms.txt', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
  });
  afterAll(async () => ctx?.close());

  it('is plain text naming both variants, their OpenAPI documents and the MCP endpoint, without a key', async () => {
    const r = await ctx.app.inject({ url: '/llms.txt' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.body.startsWith('# PureRank\n')).toBe(true);
    for (const s of ['/v1/openapi.json', '/api/v1/openapi.json', '/docs', '/mcp', 'Bearer', 'explain_score'])
      expect(r.body).toContain(s);
    // Every document it links to is served.
    for (const url of ['/v1/openapi.json', '/api/v1/openapi.json'])
      expect((await ctx.app.inject({ url })).statusCode).toBe(200);
  });
});

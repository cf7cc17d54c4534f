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
  });

  it('links only to paths this service serves; repository files are named as such, not linked', async () => {
    const body = (await ctx.app.inject({ url: '/llms.txt' })).body;
    const links = [...body.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link, link).toMatch(/^\/[^/]/);
    expect(links).toEqual(
      expect.arrayContaining(['/v1/openapi.json', '/api/v1/openapi.json', '/docs', '/mcp']),
    );
    // Each answers without a key: documents 200, the dashboard a page or a redirect to sign in, /mcp
    // its 401 for no key. None is missing.
    for (const url of links) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).not.toBe(404);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    for (const url of ['/v1/openapi.json', '/api/v1/openapi.json', '/docs'])
      expect((await ctx.app.inject({ url })).statusCode, url).toBe(200);
    // A docs/ file is mentioned only as the repository's (in the same list item), never as a link.
    expect(body).not.toMatch(/\]\([^)]*docs\/[^)]*\.md\)/);
    const mentions = body.split(/\n(?=- |\n|#)/).filter((block) => /docs\/\w+\.md/.test(block));
    expect(mentions.length).toBeGreaterThan(0);
    for (const block of mentions) expect(block).toMatch(/repository/);
  });

  it('tells an agent how an API key is made: the dashboard or the operator', async () => {
    const body = (await ctx.app.inject({ url: '/llms.txt' })).body;
    expect(body).toContain('## Getting an API key');
    expect(body).toContain('(/dashboard/keys)');
    expect(body).toContain('purerank keys create ACCOUNT');
    expect(body).toContain('POST /admin/v1/accounts/{name}/keys');
  });
});

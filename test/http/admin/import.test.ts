import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { createContainer } from '../../../src/container.ts';
import { buildApp } from '../../../src/http/app.ts';
import { ADMIN_TOKEN, bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { createTestDatabase, DIALECTS } from '../../support/databases.ts';
import { expectValidOpenApi31 } from '../../support/openapi.ts';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' };
const PILLARS = ['coa', 'purity', 'sentiment', 'transparency', 'experience'];
const scoredVendor = (slug: string, value: number) =>
  [
    JSON.stringify({ type: 'vendor', slug, name: slug.toUpperCase(), location: 'Canada', verified: true }),
    ...PILLARS.map((field) =>
      JSON.stringify({ type: 'override', vendorSlug: slug, field, value, reason: 'test' }),
    ),
  ].join('\n');

describe.each(DIALECTS)('POST /admin/v1/import (%s)', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    key = await ctx.keyFor('enterprise');
  });
  afterAll(async () => ctx?.close());

  it('imports a file and the change is visible on the very next read', async () => {
    const before = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(before.json().data.total).toBe(0);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: admin,
      payload: scoredVendor('alpha', 81),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ imported: true, lines: 6, counts: { vendor: 1, override: 5 } });
    const after = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(after.json().data.vendors.map((v: { slug: string; score: number }) => [v.slug, v.score])).toEqual([
      ['alpha', 81],
    ]);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('rejects a file with bad lines, lists them, and writes nothing', async () => {
    const payload = [scoredVendor('beta', 70), '{"type":"vendor","slug":"x"}', '{"type":"nope"}'].join('\n');
    const res = await ctx.app.inject({ method: 'POST', url: '/admin/v1/import', headers: admin, payload });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toMatchObject({ code: 'invalid_parameter', status: 400, error_count: 2 });
    expect(body.error.lines.map((l: { line: number }) => l.line)).toEqual([7, 8]);
    expect(body.error.lines[0].message).toContain('vendor.name');
    const list = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(list.json().data.vendors.map((v: { slug: string }) => v.slug)).toEqual(['alpha']);
  });

  it('requires the admin token; API keys are not admin tokens', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, bearer(key)]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/import',
        headers: { ...headers, 'content-type': 'application/x-ndjson' },
        payload: scoredVendor('gamma', 90),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_api_key');
    }
  });

  it('counts lines without the final newline, and refuses a JSON document with 415', async () => {
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: admin,
      payload: `${scoredVendor('delta', 60)}\n`,
    });
    expect(ok.json()).toMatchObject({ imported: true, lines: 6 });
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: { authorization: admin.authorization, 'content-type': 'application/json' },
      payload: { type: 'vendor', slug: 'x', name: 'X' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.code).toBe('unsupported_media_type');
  });

  it('refuses other content types with 415', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/import',
      headers: { authorization: admin.authorization, 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatchObject({ code: 'unsupported_media_type', status: 415 });
  });

  it('publishes a valid OpenAPI 3.1 document of its own', async () => {
    const res = await ctx.app.inject({
      url: '/admin/v1/openapi.json',
      headers: { authorization: admin.authorization },
    });
    expect(res.statusCode).toBe(200);
    await expectValidOpenApi31(res.json());
    // The operator API's other routes share the document (test/http/admin/openapi.test.ts).
    expect(Object.keys(res.json().paths)).toContain('/import');
  });
});

describe('operator API switched off', () => {
  it('answers 404 when PURERANK_ADMIN_TOKEN is unset', async () => {
    const db = await createTestDatabase('sqlite');
    const container = await createContainer(
      loadConfig({ DATABASE_URL: db.url, PURERANK_SEED_DEMO: 'false' }),
    );
    const app = await buildApp(container);
    try {
      const res = await app.inject({ method: 'POST', url: '/admin/v1/import', headers: admin, payload: '' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    } finally {
      await app.close();
      await container.close();
      await db.drop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { ADMIN, adminAuth, setupAdmin } from './helpers.ts';

type Admin = Awaited<ReturnType<typeof setupAdmin>>;

/**
 * JSON bodies of the operator API are strict UTF-8, like the import: bytes that are not UTF-8 are a
 * 400 in the documented body and nothing is written (before, Fastify decoded them to U+FFFD and the
 * reason was stored as such).
 */
describe.each(DIALECTS)('operator API JSON bodies are strict UTF-8 (%s)', (dialect) => {
  let a: Admin;
  beforeAll(async () => {
    a = await setupAdmin(dialect);
  });
  afterAll(async () => a?.ctx.close());

  const put = (payload: Buffer) =>
    a.ctx.app.inject({
      method: 'PUT',
      url: `${ADMIN}/vendors/apex/overrides/coa`,
      headers: { ...adminAuth, 'content-type': 'application/json', 'x-operator': 'alice' },
      payload,
    });

  it('refuses invalid UTF-8 with a 400 and writes nothing', async () => {
    const good = Buffer.from('{"value":90,"reason":"audited ');
    const bad = Buffer.concat([good, Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const res = await put(bad);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(res.json().error.message).toMatch(/UTF-8/);
    const overrides = await a.ctx.app.inject({ url: `${ADMIN}/overrides?vendor=apex`, headers: adminAuth });
    expect(overrides.json().data).toEqual([]);
  });

  it('accepts the same body in valid UTF-8, multi-byte characters included', async () => {
    const res = await put(Buffer.from('{"value":90,"reason":"audité on site — 检查"}'));
    expect(res.statusCode).toBe(200);
    const overrides = await a.ctx.app.inject({ url: `${ADMIN}/overrides?vendor=apex`, headers: adminAuth });
    expect(overrides.json().data[0].reason).toBe('audité on site — 检查');
  });

  it('still refuses prototype-poisoning keys', async () => {
    const res = await put(Buffer.from('{"value":90,"reason":"x","__proto__":{"admin":true}}'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.status).toBe(400);
  });
});

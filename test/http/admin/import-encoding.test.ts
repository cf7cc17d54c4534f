import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpTables } from '../../storage/support.ts';
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' };
const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/**
 * POST /admin/v1/import follows the same text rules as `purerank import` (one rule, in the core
 * import parser): bytes that are not UTF-8 and control characters are bad lines, nothing is written.
 */
describe.each(DIALECTS)('POST /admin/v1/import: text encoding (%s)', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(async () => ctx?.close());

  const post = (payload: Buffer) =>
    ctx.app.inject({ method: 'POST', url: '/admin/v1/import', headers: admin, payload });

  it('refuses invalid UTF-8 and control characters, by line, and writes nothing', async () => {
    const dump = await dumpTables(ctx.container.store.kysely);
    const prefix = '{"type":"vendor","slug":"bad","name":"Bad ';
    const res = await post(
      bytes(
        '{"type":"vendor","slug":"good","name":"Good"}\r\n',
        prefix,
        [0xff, 0xfe, 0xc3],
        '"}\r\n',
        '{"type":"vendor","slug":"bell","name":"B\\u0007"}\n',
      ),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'invalid_parameter',
      status: 400,
      error_count: 2,
      lines: [
        { line: 2, message: `not valid UTF-8: byte 0xFF at byte ${prefix.length + 1} of the line` },
        { line: 3, message: 'vendor.name: contains a control character (U+0007) at character 2' },
      ],
    });
    expect(await dumpTables(ctx.container.store.kysely)).toEqual(dump);
  });

  it('stores multi-byte text exactly (no U+FFFD), CRLF or LF', async () => {
    const res = await post(bytes('{"type":"vendor","slug":"cafe","name":"Café 🧪"}\r\n'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: true, lines: 1, counts: { vendor: 1 } });
    const row = await ctx.container.store.kysely
      .selectFrom('vendors')
      .select('name')
      .where('slug', '=', 'cafe')
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Café 🧪');
  });
});

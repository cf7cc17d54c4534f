import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../../src/core/import/json-lines.ts';
import { ADMIN_TOKEN, bearer, createTestContext, type TestContext } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';

/*
 * A large body of bad lines (docs/reliability.md, "Large imports"): a bounded report with exact
 * counts, no 5xx, nothing written, and the service answers other requests while it parses.
 */

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' };
const vendor = (slug: string) => JSON.stringify({ type: 'vendor', slug, name: slug.toUpperCase() });

describe.each(DIALECTS)('POST /admin/v1/import with many bad lines (%s)', (dialect) => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    key = await ctx.keyFor('enterprise');
  });
  afterAll(async () => ctx?.close());

  it('lists the first 1,000 errors in line order, counts them all, and writes nothing', async () => {
    // 4 MiB: a good line, then 1,048,576 lines of `x` with 524,288 blank lines between pairs.
    const bad = 1024 * 1024;
    const payload = Buffer.from(`${vendor('good')}\n${'x\nx\n\n'.repeat(bad / 2)}`);
    const res = await ctx.app.inject({ method: 'POST', url: '/admin/v1/import', headers: admin, payload });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('invalid_parameter');
    expect(error.error_count).toBe(bad);
    expect(error.lines).toHaveLength(1000);
    expect(error.lines[0]).toEqual({ line: 2, message: 'not valid JSON' });
    // Lines 2, 3, (blank), 5, 6, (blank) …: the 1,000th bad line is line 1,500.
    expect(error.lines.at(-1)).toEqual({ line: 1500, message: 'not valid JSON' });
    expect(error.message).toBe(
      'The file has 1,048,576 bad lines; nothing was imported. The first 1,000 errors are listed; 1,047,576 more are not.',
    );
    const list = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    expect(list.json().data.total).toBe(0);
  });

  it('answers a public request while a large body is being parsed', async () => {
    const payload = Buffer.from('x\n'.repeat(1024 * 1024));
    const order: string[] = [];
    const importing = ctx.app
      .inject({ method: 'POST', url: '/admin/v1/import', headers: admin, payload })
      .then((res) => {
        order.push('import');
        return res;
      });
    // Let the import start parsing before the read is sent.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const read = await ctx.app.inject({ url: '/api/v1/vendors', headers: bearer(key) });
    order.push('read');
    expect(read.statusCode).toBe(200);
    const res = await importing;
    expect(res.statusCode).toBe(400);
    expect(res.json().error.error_count).toBe(1024 * 1024);
    expect(order).toEqual(['read', 'import']);
  });

  it('refuses a line longer than 1 MiB without parsing it, and keeps reading the lines after it', async () => {
    const long = `{"type":"vendor","slug":"huge","name":"${'y'.repeat(MAX_LINE_BYTES)}"}`;
    const payload = Buffer.from(`${vendor('fine')}\n${long}\n{"type":"nope"}\n`);
    const res = await ctx.app.inject({ method: 'POST', url: '/admin/v1/import', headers: admin, payload });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.error_count).toBe(2);
    expect(error.message).toBe('The file has 2 bad lines; nothing was imported.');
    expect(error.lines).toEqual([
      { line: 2, message: 'longer than 1048576 bytes; not read' },
      { line: 3, message: expect.stringMatching(/^unknown record type "nope"/) },
    ]);
  });
});

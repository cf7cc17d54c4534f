import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportHarness, openImportHarness } from './support.ts';

/** Import records obey the bounds of custom limits and price rows (decision 0006, core/prices/bounds.ts). */
describe('import: bounds of account limits and price numbers', () => {
  let h: ImportHarness;
  beforeAll(async () => {
    h = await openImportHarness();
    await h.ok([
      '{"type":"peptide","slug":"tb-500","name":"TB-500","category":"recovery","molecularWeight":"4963.4 g/mol"}',
      '{"type":"vendor","slug":"alpha","name":"Alpha"}',
    ]);
  });
  afterAll(async () => h?.close());

  const price = (vialMg: string, totalUsd = '1000000') =>
    `{"type":"price","vendorSlug":"alpha","peptideSlug":"tb-500","vialMg":${vialMg},"source":"live",` +
    `"totalUsd":${totalUsd},"inStock":true,"updatedAt":"2026-05-31T00:00:00.000Z"}`;

  it.each([
    ['{"type":"account","name":"a","plan":"custom","rateLimitA":1e22}', 'rateLimitA'],
    ['{"type":"account","name":"a","plan":"custom","rateLimitA":9007199254740993}', 'rateLimitA'],
    ['{"type":"account","name":"a","plan":"custom","rateLimitB":1000001}', 'rateLimitB'],
    [price('5e-324'), 'vialMg'],
    [price('0.0009'), 'vialMg'],
    [price('5', '1000000.01'), 'totalUsd'],
  ])('%s is a bad line naming %s', async (line, field) => {
    const r = await h.run([line]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([{ line: 1, message: expect.stringContaining(field) }]);
  });

  it('the bounds themselves are accepted', async () => {
    const r = await h.run([
      '{"type":"account","name":"a","plan":"custom","rateLimitA":10000000,"rateLimitB":1000000}',
      price('0.001'),
    ]);
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });
});

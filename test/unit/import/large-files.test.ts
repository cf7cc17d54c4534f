import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJsonLineBatches } from '../../../src/core/import/import-data.ts';
import {
  decodeJsonLineBatches,
  decodeJsonLines,
  type ImportLine,
  MAX_LINE_BYTES,
} from '../../../src/core/import/json-lines.ts';
import { ImportParser, MAX_LISTED_ERRORS } from '../../../src/core/import/parse-import.ts';
import { countRows } from '../../storage/support.ts';
import { type ImportHarness, jl, openImportHarness } from './support.ts';

/*
 * Files of many lines (docs/reliability.md, "Large imports"): a bounded list of errors with exact
 * counts, blank lines that cost nothing, lines past the length limit refused unread, and a
 * request body decoded a slice at a time.
 */

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

async function lines(chunks: Uint8Array[], maxLineBytes?: number): Promise<ImportLine[]> {
  const out: ImportLine[] = [];
  const opts = maxLineBytes === undefined ? {} : { maxLineBytes };
  for await (const line of decodeJsonLines(chunks, opts)) out.push(line);
  return out;
}

describe('decodeJsonLines: the line length limit', () => {
  const tooLong = { overlong: true, limit: 8 };

  it('hands on a line past the limit as overlong, wherever the chunks cut it, and keeps its neighbours', async () => {
    const data = enc('{"a":1}\n0123456789abcdef\n12345678\n123456789\n{"b":2}');
    const cuts: Uint8Array[][] = [[data], [...data].map((b) => Uint8Array.of(b))];
    for (let i = 0; i <= data.length; i++) cuts.push([data.subarray(0, i), data.subarray(i)]);
    for (const chunks of cuts) {
      // 8 bytes is the limit itself (allowed), 9 is one past it.
      expect(await lines(chunks, 8)).toEqual(['{"a":1}', tooLong, '12345678', tooLong, '{"b":2}']);
    }
  });

  it('counts a CR before the LF in the line, and refuses an overlong last line without a final LF', async () => {
    expect(await lines([enc('1234567\r\n12345678\r\n')], 8)).toEqual(['1234567', tooLong]);
    expect(await lines([enc('ok\n'), enc('x'.repeat(20))], 8)).toEqual(['ok', tooLong]);
  });

  it('defaults to 1 MiB', async () => {
    const exact = 'x'.repeat(MAX_LINE_BYTES);
    const out = await lines([enc(`${exact}\n${exact}y\nz\n`)]);
    expect(out).toHaveLength(3);
    expect(out[0]).toBe(exact);
    expect(out[1]).toEqual({ overlong: true, limit: 1024 * 1024 });
    expect(out[2]).toBe('z');
  });

  it('decodes one large chunk a slice at a time, never one batch of every line', async () => {
    const body = Buffer.alloc(1024 * 1024, '\n'); // a 1 MiB request body of empty lines
    let total = 0;
    let largest = 0;
    for await (const batch of decodeJsonLineBatches([body])) {
      expect(batch.length).toBeGreaterThan(0);
      total += batch.length;
      largest = Math.max(largest, batch.length);
    }
    expect(total).toBe(1024 * 1024);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('ImportParser: many bad lines', () => {
  it('lists only the first errors and counts every one', () => {
    const parser = new ImportParser(0, { maxListed: 3 });
    for (let n = 1; n <= 10; n++) parser.addLine(n % 2 ? 'x' : '', n);
    expect(parser.errors).toEqual([
      { line: 1, message: 'not valid JSON' },
      { line: 3, message: 'not valid JSON' },
      { line: 5, message: 'not valid JSON' },
    ]);
    expect(parser.errorCount).toBe(5);
    expect(parser.badLines).toBe(5);
  });

  it('reports an overlong line by its number, unparsed', () => {
    const parser = new ImportParser(0);
    parser.addLine({ overlong: true, limit: MAX_LINE_BYTES }, 7);
    expect(parser.errors).toEqual([{ line: 7, message: 'longer than 1048576 bytes; not read' }]);
  });

  it('merges reference errors found at the end into line order, keeping the first ones', () => {
    const parser = new ImportParser(Date.parse('2026-06-01T00:00:00Z'), { maxListed: 4 });
    const batch = (n: number) =>
      jl({
        type: 'batch',
        vendorSlug: `v${n}`,
        batchId: 'B',
        peptideSlug: `p${n}`,
        status: 'pending',
        submittedAt: '2026-05-01T00:00:00Z',
      });
    // Lines 1–3: batches naming an unknown vendor and peptide (2 errors each, found in finish());
    // lines 4–9: bad JSON (found at once); line 10: a price naming an unknown vendor and peptide.
    for (let n = 1; n <= 3; n++) parser.addLine(batch(n), n);
    for (let n = 4; n <= 9; n++) parser.addLine('{', n);
    parser.addLine(
      jl({
        type: 'price',
        vendorSlug: 'ghost',
        peptideSlug: 'ghost',
        vialMg: 5,
        source: 'baseline',
        totalUsd: 10,
        inStock: true,
        updatedAt: '2026-05-01T00:00:00Z',
      }),
      10,
    );
    const none = { vendors: new Set<string>(), peptides: new Set<string>(), labs: new Set<string>() };
    const errors = parser.finish({ ...none, accounts: new Set(), reviews: new Set() });
    expect(errors.map((e) => e.line)).toEqual([1, 1, 2, 2]);
    expect(errors[0]!.message).toMatch(/vendor 'v1' does not exist/);
    expect(errors[1]!.message).toMatch(/peptide 'p1' does not exist/);
    expect(parser.errorCount).toBe(6 + 3 * 2 + 2);
    expect(parser.badLines).toBe(10);
  });
});

describe('importJsonLineBatches: a file of many bad lines', () => {
  let h: ImportHarness;
  beforeAll(async () => {
    h = await openImportHarness('sqlite');
  });
  afterAll(async () => h?.close());

  it('reports the first 1,000 errors with exact counts, and writes nothing', async () => {
    const rows = await countRows(h.store.kysely);
    const body = Buffer.from(`${jl({ type: 'vendor', slug: 'ok', name: 'OK' })}\n${'x\n\n'.repeat(200_000)}`);
    const result = await importJsonLineBatches(decodeJsonLineBatches([body]), {
      store: h.store.imports,
      clock: h.clock,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.lines).toBe(400_001);
    expect(result.errorCount).toBe(200_000);
    expect(result.badLines).toBe(200_000);
    expect(result.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(result.errors[0]).toEqual({ line: 2, message: 'not valid JSON' });
    expect(result.errors.at(-1)).toEqual({ line: 2 * MAX_LISTED_ERRORS, message: 'not valid JSON' });
    expect(await countRows(h.store.kysely)).toEqual(rows);
  });
});

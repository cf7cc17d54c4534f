import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importJsonLines } from '../../src/core/import/import-data.ts';
import { decodeJsonLines } from '../../src/core/import/json-lines.ts';
import { demoDataset } from '../../src/seed/demo-dataset.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore, T0 } from './support.ts';

const DOC = readFileSync(resolve(import.meta.dirname, '../../docs/import-format.md'), 'utf8');
/** The "complete small file" of docs/import-format.md, as written there. */
const EXAMPLE = /```jsonl\n([\s\S]*?)```/.exec(DOC)![1]!;

/** docs/import-format.md says what its example does and how an import counts: hold it to that. */
describe.each(DIALECTS)('docs/import-format.md, as written (%s)', (dialect) => {
  let fresh: FreshStore;
  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
  });
  afterEach(async () => fresh?.close());

  const run = (text: string) =>
    importJsonLines(decodeJsonLines([new TextEncoder().encode(text)]), {
      store: fresh.store.imports,
      clock: { now: () => T0 },
    });

  it('the example: composite 83 as worked out there, a slug that is not in the demo dataset', async () => {
    const slug = /"type":"vendor","slug":"([a-z0-9-]+)"/.exec(EXAMPLE)![1]!;
    expect(demoDataset(T0).vendor.map((v) => v.slug)).not.toContain(slug);
    const result = await run(EXAMPLE);
    expect(result).toMatchObject({ ok: true, lines: 17 });
    const vendor = (await fresh.store.catalog.listVendors()).find((v) => v.slug === slug)!;
    expect(vendor.score).toBe(83);
    expect(DOC).toContain(`\`${slug}\` is scored with composite 83`);
  });

  it('lines: a final newline ends the last line and adds none; errors can outnumber bad lines', async () => {
    const six = `${EXAMPLE.split('\n').slice(0, 6).join('\n')}\n`;
    expect(await run(six)).toMatchObject({ ok: true, lines: 6 });
    const bad = [
      '{"type":"vendor","slug":"Bad","name":"x"}',
      '{"type":"batch","vendorSlug":"ghost","batchId":"X1","peptideSlug":"none","status":"pending","submittedAt":"2026-01-01T00:00:00.000Z"}',
    ].join('\n');
    const result = await run(`${bad}\n`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.lines).toBe(2);
    expect(result.errors).toHaveLength(3);
    expect(new Set(result.errors.map((e) => e.line)).size).toBe(2);
  });
});

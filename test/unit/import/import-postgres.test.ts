import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import { countRows, dumpTables } from '../../storage/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { GOOD_COUNTS, GOOD_FILE, GOOD_LINES, type ImportHarness, jl, openImportHarness } from './support.ts';

describe.runIf(DIALECTS.includes('postgres'))('importJsonLines: smoke on PostgreSQL', () => {
  let h: ImportHarness;
  beforeAll(async () => {
    h = await openImportHarness('postgres');
  });
  afterAll(async () => h?.close());

  it('imports a good file', async () => {
    expect(await h.run(GOOD_FILE)).toEqual({ ok: true, lines: GOOD_LINES, counts: GOOD_COUNTS });
    expect(await h.store.catalog.getVendorDetail('alpha', 5)).toMatchObject({
      score: 80,
      claimed: true,
      scoreHistory: [80],
    });
    expect((await h.store.catalog.getPeptide('bpc-157'))?.aliases).toEqual(['BPC157']);
  });

  it('refuses a bad file, reporting lines, and writes nothing', async () => {
    const rows = await countRows(h.store.kysely);
    const state = await h.store.state.read();
    const result = await h.run([
      jl({ type: 'vendor', slug: 'pg-new', name: 'New' }),
      '',
      jl({
        type: 'batch',
        vendorSlug: 'pg-new',
        batchId: 'X',
        peptideSlug: 'ghost',
        status: 'pending',
        submittedAt: '2026-05-01T00:00:00Z',
      }),
      'not json',
    ]);
    expect(result).toEqual({
      ok: false,
      lines: 4,
      errors: [
        { line: 3, message: expect.stringMatching(/peptide 'ghost' does not exist/) },
        { line: 4, message: 'not valid JSON' },
      ],
      errorCount: 2,
      badLines: 2,
    });
    expect(await countRows(h.store.kysely)).toEqual(rows);
    expect(await h.store.state.read()).toEqual(state);
  });

  it('importing the same file again changes no rows', async () => {
    const omit = {
      vendors: ['updated_at', 'row_version'],
      peptides: ['updated_at'],
      overrides: ['created_at'],
    };
    const before = await dumpTables(h.store.kysely, omit);
    h.clock.advance(HOUR_MS);
    expect((await h.run(GOOD_FILE)).ok).toBe(true);
    expect(await dumpTables(h.store.kysely, omit)).toEqual(before);
  });
});

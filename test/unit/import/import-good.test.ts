import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../src/core/clock.ts';
import type { ImportProgress } from '../../../src/core/import/import-data.ts';
import { batchKey } from '../../../src/core/import/records.ts';
import { countRows, dumpTables } from '../../storage/support.ts';
import {
  at,
  GOOD_COUNTS,
  GOOD_FILE,
  GOOD_LINES,
  type ImportHarness,
  jl,
  openImportHarness,
  T0,
} from './support.ts';

describe('importJsonLines: accepted files (sqlite)', () => {
  let h: ImportHarness;
  beforeEach(async () => {
    h = await openImportHarness('sqlite');
  });
  afterEach(async () => h?.close());

  it('imports a good file, reporting counts per type and every line read', async () => {
    const before = await h.store.state.read();
    const result = await h.run(GOOD_FILE);
    expect(result).toEqual({ ok: true, lines: GOOD_LINES, counts: GOOD_COUNTS });
    const rows = await countRows(h.store.kysely);
    expect(rows).toMatchObject({
      accounts: 1,
      labs: 1,
      peptides: 1,
      peptide_aliases: 1,
      vendors: 2,
      prices: 1,
      batches: 2,
      reviews: 1,
      replies: 1,
      overrides: 5,
      score_history: 1,
    });
    const after = await h.store.state.read();
    expect(after.dataVersion).toBe(before.dataVersion + 1);
    expect(after.dataUpdatedAt).toBe(new Date(T0).toISOString());
    const alpha = (await h.store.catalog.getVendorDetail('alpha', 10))!;
    expect(alpha).toMatchObject({
      score: 80,
      claimed: true,
      verified: true,
      purity: 99.1,
      scoreHistory: [80],
    });
  });

  it('takes "now" from the clock and the history reason from the options', async () => {
    h.clock.set(T0 + HOUR_MS);
    expect((await h.run(GOOD_FILE, { reason: 'weekly refresh' })).ok).toBe(true);
    const hist = await h.store.kysely.selectFrom('score_history').select(['reason', 'recorded_at']).execute();
    expect(hist).toEqual([{ reason: 'weekly refresh', recorded_at: at(HOUR_MS) }]);
    expect((await h.store.state.read()).dataUpdatedAt).toBe(at(HOUR_MS));
  });

  it('ignores blank lines, whitespace-only lines, comments and CR line endings', async () => {
    const file = [
      '',
      '   ',
      '# comment',
      '\t# tabbed comment',
      `${jl({ type: 'vendor', slug: 'crlf', name: 'CRLF' })}\r`,
      '\r',
      '',
    ].join('\n');
    expect(await h.run(file)).toEqual({ ok: true, lines: 7, counts: { vendor: 1 } });
    expect((await h.store.catalog.listVendors()).map((v) => v.slug)).toEqual(['crlf']);
  });

  it('accepts a file of only comments and blank lines, writing no records', async () => {
    const result = await h.run('# nothing here\n\n');
    expect(result).toEqual({ ok: true, lines: 3, counts: {} });
    expect(Object.values(await countRows(h.store.kysely)).every((n) => n === 0)).toBe(true);
  });

  it('accepts references to records that appear later in the same file', async () => {
    const file = [
      jl({ type: 'reply', reviewId: 'r-late', body: 'Reply first', createdAt: '2026-05-02T00:00:00.000Z' }),
      jl({
        type: 'review',
        id: 'r-late',
        vendorSlug: 'late',
        rating: 3,
        title: 'Ok',
        body: 'Ok',
        author: 'lee',
        createdAt: '2026-05-01T00:00:00.000Z',
      }),
      jl({ type: 'claim', vendorSlug: 'late', account: 'late-acct' }),
      jl({ type: 'vendor', slug: 'late', name: 'Late' }),
      jl({ type: 'account', name: 'late-acct', plan: 'free' }),
    ];
    expect((await h.run(file)).ok).toBe(true);
    expect((await h.store.catalog.getVendorDetail('late', 1))?.claimed).toBe(true);
  });

  it('accepts references satisfied by rows already in the database', async () => {
    await h.ok(GOOD_FILE);
    const second = [
      jl({
        type: 'batch',
        vendorSlug: 'beta',
        batchId: 'B-2',
        peptideSlug: 'bpc-157',
        purity: 98,
        lab: 'janoshik',
        testMethod: 'HPLC',
        testedAt: '2026-05-01T00:00:00.000Z',
        status: 'approved',
      }),
      jl({
        type: 'price',
        vendorSlug: 'beta',
        peptideSlug: 'bpc-157',
        vialMg: 10,
        source: 'live',
        totalUsd: 70,
        inStock: false,
        updatedAt: '2026-05-31T00:00:00.000Z',
      }),
      jl({ type: 'claim', vendorSlug: 'beta', account: 'acme' }),
      jl({ type: 'override', vendorSlug: 'alpha', field: 'score', value: 90, reason: 'pin' }),
      jl({ type: 'reply', reviewId: 'rev-1', body: 'Edited reply', createdAt: '2026-05-12T00:00:00.000Z' }),
      jl({
        type: 'review',
        id: 'rev-2',
        vendorSlug: 'beta',
        rating: 2,
        title: 'Meh',
        body: 'Slow.',
        author: 'ana',
        createdAt: '2026-05-20T00:00:00.000Z',
      }),
    ];
    expect(await h.run(second)).toEqual({
      ok: true,
      lines: 6,
      counts: { batch: 1, price: 1, claim: 1, override: 1, reply: 1, review: 1 },
    });
    expect((await h.store.batches.findByKey(batchKey('b-2')))[0]).toMatchObject({
      labName: 'Janoshik',
      purity: 98,
    });
    expect((await h.store.catalog.getVendorDetail('beta', 5))?.claimed).toBe(true);
    expect((await h.store.catalog.getVendorDetail('alpha', 5))?.scoreHistory).toEqual([80, 90]);
    const reply = await h.store.kysely.selectFrom('replies').selectAll().executeTakeFirstOrThrow();
    expect(reply).toEqual({
      review_id: 'rev-1',
      body: 'Edited reply',
      created_at: '2026-05-12T00:00:00.000Z',
      // Imported without `account`: nobody is recorded as the author.
      account_id: null,
    });
  });

  it('a claim with account null needs no account and releases the vendor', async () => {
    await h.ok(GOOD_FILE);
    expect(await h.run([jl({ type: 'claim', vendorSlug: 'alpha', account: null })])).toMatchObject({
      ok: true,
    });
    expect((await h.store.catalog.getVendorDetail('alpha', 1))?.claimed).toBe(false);
  });

  it('importing the same file twice leaves the same rows; only the data version, updated_at and row_version move', async () => {
    await h.ok(GOOD_FILE);
    const omit = { vendors: ['updated_at', 'row_version'], peptides: ['updated_at'] };
    const first = await dumpTables(h.store.kysely, omit);
    const v1 = await h.store.state.read();
    h.clock.advance(HOUR_MS);
    expect(await h.run(GOOD_FILE)).toEqual({ ok: true, lines: GOOD_LINES, counts: GOOD_COUNTS });
    const v2 = await h.store.state.read();
    expect(v2.dataVersion).toBe(v1.dataVersion + 1);
    expect(v2.dataUpdatedAt).toBe(at(HOUR_MS));
    expect(await dumpTables(h.store.kysely, omit)).toEqual(first);
  });

  it('accepts a timestamp a little ahead of the clock (skew) and "now" itself', async () => {
    const file = [
      jl({ type: 'vendor', slug: 'skew', name: 'Skew' }),
      jl({
        type: 'price',
        vendorSlug: 'skew',
        peptideSlug: 'bpc-157',
        vialMg: 5,
        source: 'live',
        totalUsd: 1,
        inStock: true,
        updatedAt: at(0),
      }),
      jl({
        type: 'peptide',
        slug: 'bpc-157',
        name: 'BPC-157',
        category: 'healing',
        molecularWeight: '1419.5 g/mol',
      }),
      jl({
        type: 'review',
        id: 'skewed',
        vendorSlug: 'skew',
        rating: 5,
        title: 't',
        body: 'b',
        author: 'a',
        createdAt: at(60_000),
      }),
    ];
    expect((await h.run(file)).ok).toBe(true);
  });

  it('stores imported timestamps as ISO 8601 UTC with milliseconds (DESIGN: every timestamp)', async () => {
    const file = [
      jl({ type: 'peptide', slug: 'p', name: 'P', category: 'c', molecularWeight: '1 g/mol' }),
      jl({ type: 'lab', slug: 'l', name: 'L' }),
      jl({ type: 'vendor', slug: 'tz', name: 'TZ', verifiedAt: '2026-01-15T02:00:00+02:00' }),
      jl({
        type: 'price',
        vendorSlug: 'tz',
        peptideSlug: 'p',
        vialMg: 5,
        source: 'live',
        totalUsd: 1,
        inStock: true,
        updatedAt: '2026-05-01T02:00:00+02:00',
      }),
      jl({
        type: 'batch',
        vendorSlug: 'tz',
        batchId: 'TZ-1',
        peptideSlug: 'p',
        purity: 99,
        lab: 'l',
        testMethod: 'HPLC',
        testedAt: '2026-04-01T00:00Z',
        status: 'approved',
      }),
    ];
    expect((await h.run(file)).ok).toBe(true);
    const pId = (await h.store.catalog.getPeptide('p'))!.id;
    expect((await h.store.catalog.listPrices(pId))[0]?.updatedAt).toBe('2026-05-01T00:00:00.000Z');
    expect((await h.store.batches.findByKey('tz-1'))[0]?.testedAt).toBe('2026-04-01T00:00:00.000Z');
    expect((await h.store.catalog.getVendorDetail('tz', 1))?.verifiedAt).toBe('2026-01-15T00:00:00.000Z');
  });

  it('streams: accepts an async iterable of lines and reports parse and write progress', async () => {
    async function* lines() {
      for (const l of GOOD_FILE.split('\n')) yield l;
    }
    const progress: ImportProgress[] = [];
    const result = await h.run(lines(), { onProgress: (p) => progress.push({ ...p }) });
    expect(result.ok).toBe(true);
    expect(progress[0]).toEqual({ phase: 'parse', done: GOOD_LINES });
    const writes = progress.filter((p) => p.phase === 'write');
    expect(writes.at(-1)).toEqual({ phase: 'write', done: 16, total: 16 });
  });
});

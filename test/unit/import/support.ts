import { ManualClock } from '../../../src/core/clock.ts';
import {
  type ImportProgress,
  type ImportResult,
  importJsonLines,
} from '../../../src/core/import/import-data.ts';
import type { OpenedStore } from '../../../src/storage/open-store.ts';
import { type FreshStore, openFreshStore, T0 } from '../../storage/support.ts';
import type { Dialect } from '../../support/databases.ts';

export { T0 };

export interface ImportHarness {
  store: OpenedStore;
  clock: ManualClock;
  /** Imports a file given as its text (split on \n, like a file reader) or as lines. */
  run(
    file: string | Iterable<string> | AsyncIterable<string>,
    opts?: { reason?: string; onProgress?: (p: ImportProgress) => void },
  ): Promise<ImportResult>;
  /** Imports and fails the test unless the file was accepted. */
  ok(file: string | string[]): Promise<Extract<ImportResult, { ok: true }>>;
  close(): Promise<void>;
}

export async function openImportHarness(dialect: Dialect = 'sqlite'): Promise<ImportHarness> {
  const fresh: FreshStore = await openFreshStore(dialect);
  const clock = new ManualClock(T0);
  const run: ImportHarness['run'] = (file, opts) =>
    importJsonLines(
      typeof file === 'string' ? file.split('\n') : file,
      { store: fresh.store.imports, clock },
      opts,
    );
  return {
    store: fresh.store,
    clock,
    run,
    async ok(file) {
      const result = await run(file);
      if (!result.ok) throw new Error(`import refused: ${JSON.stringify(result.errors)}`);
      return result;
    },
    close: fresh.close,
  };
}

/** One JSON Lines line. */
export const jl = (record: Record<string, unknown>): string => JSON.stringify(record);

/** ISO time relative to the harness clock's start. */
export const at = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

/** A good file with every record type; counts are in GOOD_COUNTS. Includes a comment and blank lines. */
export const GOOD_FILE = [
  '# PureRank import, generated for tests',
  jl({ type: 'account', name: 'acme', plan: 'pro' }),
  jl({
    type: 'lab',
    slug: 'janoshik',
    name: 'Janoshik',
    trusted: true,
    verifyUrl: 'https://janoshik.com/verify',
  }),
  jl({
    type: 'peptide',
    slug: 'bpc-157',
    name: 'BPC-157',
    category: 'healing',
    molecularWeight: '1419.5 g/mol',
    aliases: ['BPC157'],
  }),
  '',
  jl({ type: 'vendor', slug: 'alpha', name: 'Alpha', location: 'Canada', verified: true }),
  jl({ type: 'vendor', slug: 'beta', name: 'Beta' }),
  jl({ type: 'claim', vendorSlug: 'alpha', account: 'acme' }),
  jl({
    type: 'price',
    vendorSlug: 'alpha',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'baseline',
    totalUsd: 45,
    inStock: true,
    updatedAt: '2026-05-01T00:00:00.000Z',
  }),
  jl({
    type: 'batch',
    vendorSlug: 'alpha',
    batchId: 'AB-1',
    peptideSlug: 'bpc-157',
    purity: 99.1,
    lab: 'janoshik',
    testMethod: 'HPLC',
    testedAt: '2026-04-01T00:00:00.000Z',
    status: 'approved',
  }),
  jl({
    type: 'batch',
    vendorSlug: 'beta',
    batchId: 'B-1',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: '2026-05-30T00:00:00.000Z',
  }),
  '   # an indented comment',
  jl({
    type: 'review',
    id: 'rev-1',
    vendorSlug: 'alpha',
    rating: 4,
    title: 'Good',
    body: 'Fine.',
    author: 'kim',
    createdAt: '2026-05-10T00:00:00.000Z',
  }),
  jl({ type: 'reply', reviewId: 'rev-1', body: 'Thanks', createdAt: '2026-05-11T00:00:00.000Z' }),
  ...(['coa', 'purity', 'sentiment', 'transparency', 'experience'] as const).map((field) =>
    jl({ type: 'override', vendorSlug: 'alpha', field, value: 80, reason: 'manual review' }),
  ),
  '',
].join('\n');

export const GOOD_COUNTS = {
  account: 1,
  lab: 1,
  peptide: 1,
  vendor: 2,
  claim: 1,
  price: 1,
  batch: 2,
  review: 1,
  reply: 1,
  override: 5,
};
/** Lines of GOOD_FILE when split on \n (the trailing newline yields an empty last line). */
export const GOOD_LINES = GOOD_FILE.split('\n').length;

import { systemClock } from '../../src/core/clock.ts';
import { importJsonLines } from '../../src/core/import/import-data.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';

const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString();

/**
 * A small catalog for the operator commands: `alpha` is scored (one approved, tested batch) and
 * claimed by `owner-co`, with a pending batch P1 and a review `rev-1`; `beta` is unscored, with a
 * pending batch P2. Timestamps are relative to now, so the evidence is fresh whenever tests run.
 */
export function operatorFixture(): string {
  return [
    { type: 'account', name: 'owner-co', plan: 'pro' },
    { type: 'account', name: 'other-co', plan: 'free' },
    { type: 'lab', slug: 'acme-labs', name: 'Acme Labs', trusted: true },
    {
      type: 'peptide',
      slug: 'bpc-157',
      name: 'BPC-157',
      category: 'healing',
      molecularWeight: '1419.5 g/mol',
    },
    { type: 'peptide', slug: 'tb-500', name: 'TB-500', category: 'healing', molecularWeight: '4963.5 g/mol' },
    { type: 'vendor', slug: 'alpha', name: 'Alpha', location: 'Canada' },
    { type: 'vendor', slug: 'beta', name: 'Beta' },
    { type: 'claim', vendorSlug: 'alpha', account: 'owner-co' },
    {
      type: 'price',
      vendorSlug: 'alpha',
      peptideSlug: 'bpc-157',
      vialMg: 5,
      source: 'baseline',
      totalUsd: 40,
      inStock: true,
      updatedAt: daysAgo(5),
    },
    {
      type: 'batch',
      vendorSlug: 'alpha',
      batchId: 'A1',
      peptideSlug: 'bpc-157',
      status: 'approved',
      purity: 98.5,
      lab: 'acme-labs',
      testMethod: 'HPLC',
      testedAt: daysAgo(20),
      sourceUrl: 'https://example.com/a1.pdf',
    },
    {
      type: 'batch',
      vendorSlug: 'alpha',
      batchId: 'P1',
      peptideSlug: 'tb-500',
      status: 'pending',
      submittedAt: daysAgo(3),
    },
    {
      type: 'batch',
      vendorSlug: 'beta',
      batchId: 'P2',
      peptideSlug: 'bpc-157',
      status: 'pending',
      submittedAt: daysAgo(2),
    },
    {
      type: 'review',
      id: 'rev-1',
      vendorSlug: 'alpha',
      rating: 4,
      title: 'ok',
      body: 'fine',
      author: 'Jo',
      createdAt: daysAgo(10),
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
}

/** Runs `fn` on the database in this process (fast set-up and checks), then closes it. */
export async function withDatabase<T>(url: string, fn: (store: OpenedStore) => Promise<T>): Promise<T> {
  const store = await openStore(parseDatabaseUrl(url));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Loads the fixture into the database at `url` (migrating it first). */
export async function loadOperatorFixture(url: string): Promise<void> {
  await withDatabase(url, async (store) => {
    const r = await importJsonLines(operatorFixture().split('\n'), {
      store: store.imports,
      clock: systemClock,
    });
    if (!r.ok) throw new Error(`fixture: ${JSON.stringify(r.errors)}`);
  });
}

/** One line on stderr, starting with the program name. */
export const oneLine = (stderr: string): string => {
  const lines = stderr.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got:\n${stderr}`);
  return lines[0]!;
};

import { type Kysely, type Migration, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DialectCapabilities } from '../../src/storage/dialect.ts';
import * as m0001 from '../../src/storage/migrations/0001-initial.ts';
import * as m0002 from '../../src/storage/migrations/0002-outbox-and-audit.ts';
import * as m0003 from '../../src/storage/migrations/0003-coa-verifications.ts';
import * as m0004 from '../../src/storage/migrations/0004-registry-version.ts';
import * as m0005 from '../../src/storage/migrations/0005-webhooks.ts';
import * as m0006 from '../../src/storage/migrations/0006-webhook-retention-index.ts';
import * as m0007 from '../../src/storage/migrations/0007-users-sessions-usage.ts';
import * as m0008 from '../../src/storage/migrations/0008-operator-actions.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { createTestDatabase, DIALECTS } from '../support/databases.ts';
import { NOW_ISO } from './support.ts';

const BEFORE = { m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008 };
const NAMES = [
  '0001-initial',
  '0002-outbox-and-audit',
  '0003-coa-verifications',
  '0004-registry-version',
  '0005-webhooks',
  '0006-webhook-retention-index',
  '0007-users-sessions-usage',
  '0008-operator-actions',
];

/** A database at migration 0008 (before the price history) holding two listings. */
async function loadBefore(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  const migrations: Record<string, Migration> = {};
  Object.values(BEFORE).forEach((m, i) => {
    migrations[NAMES[i]!] = { up: (d) => m.up(d, caps) };
  });
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  }).migrateToLatest();
  if (error) throw error;
  const q = db as Kysely<Record<string, Record<string, unknown>>>;
  const common = { created_at: NOW_ISO, updated_at: NOW_ISO };
  await q
    .insertInto('vendors')
    .values({
      slug: 'old',
      name: 'Old Co',
      location: '',
      description: '',
      listing_plan: 'free',
      verified: 1,
      pending: 0,
      ...common,
    })
    .execute();
  await q
    .insertInto('peptides')
    .values({ slug: 'p', name: 'P', category: 'c', molecular_weight: '1 g/mol', ...common })
    .execute();
  const id = async (t: string) => Number((await q.selectFrom(t).select('id').executeTakeFirstOrThrow()).id);
  const listing = { vendor_id: await id('vendors'), peptide_id: await id('peptides'), vial_mg: 5 };
  await q
    .insertInto('prices')
    .values([
      { ...listing, source: 'baseline', total_usd: 50, in_stock: 1, updated_at: '2026-05-01T00:00:00.000Z' },
      { ...listing, source: 'live', total_usd: 40, in_stock: 0, updated_at: '2026-05-20T00:00:00.000Z' },
    ])
    .execute();
}

describe.each(DIALECTS)('upgrading to migration 0009, the price history (%s)', (dialect) => {
  it('starts the history with the listings held, each a change from nothing at its updatedAt', async () => {
    const target = await createTestDatabase(dialect);
    try {
      const before = await openStore(parseDatabaseUrl(target.url), { migrate: false });
      await loadBefore(before.kysely as unknown as Kysely<unknown>, before.caps);
      await before.close();

      const after = await openStore(parseDatabaseUrl(target.url));
      try {
        const rows = await after.kysely
          .selectFrom('price_changes')
          .select([
            'source',
            'old_total_usd',
            'new_total_usd',
            'new_in_stock',
            'effective_at',
            'changed_at',
            'changed_by',
          ])
          .orderBy('source')
          .execute();
        expect(rows).toEqual([
          {
            source: 'baseline',
            old_total_usd: null,
            new_total_usd: 50,
            new_in_stock: 1,
            effective_at: '2026-05-01T00:00:00.000Z',
            changed_at: '2026-05-01T00:00:00.000Z',
            changed_by: 'migration 0009',
          },
          {
            source: 'live',
            old_total_usd: null,
            new_total_usd: 40,
            new_in_stock: 0,
            effective_at: '2026-05-20T00:00:00.000Z',
            changed_at: '2026-05-20T00:00:00.000Z',
            changed_by: 'migration 0009',
          },
        ]);
        // The statistics read them, with the vendor's facts.
        const peptide = await after.catalog.getPeptide('p');
        const list = await after.priceHistory.listPriceChanges(peptide!.id, '2026-06-01T00:00:00.000Z');
        expect(list.map((c) => [c.source, c.totalUsd, c.inStock, c.verified])).toEqual([
          ['baseline', 50, true, true],
          ['live', 40, false, true],
        ]);
        expect(await after.migrate()).toEqual([]);
      } finally {
        await after.close();
      }
    } finally {
      await target.drop();
    }
  });
});

import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as m0001 from '../../src/storage/migrations/0001-initial.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { createTestDatabase, DIALECTS } from '../support/databases.ts';
import { NOW_ISO } from './support.ts';

/** Loads a v0 database (migration 0001 only): a vendor with evidence and no pillar overrides. */
async function loadV0(db: Kysely<unknown>, caps: Parameters<typeof m0001.up>[1]): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ '0001-initial': { up: (d) => m0001.up(d, caps) } }) },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  const q = db as Kysely<Record<string, Record<string, unknown>>>;
  const now = NOW_ISO;
  await q
    .insertInto('vendors')
    .values({
      slug: 'old',
      name: 'Old Co',
      location: 'Peru',
      description: 'x',
      listing_plan: 'free',
      verified: 1,
      pending: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await q
    .insertInto('peptides')
    .values({
      slug: 'p',
      name: 'P',
      category: 'c',
      molecular_weight: '1 g/mol',
      created_at: now,
      updated_at: now,
    })
    .execute();
  await q.insertInto('labs').values({ slug: 'l', name: 'L', trusted: 1 }).execute();
  const ids = async (t: string) => Number((await q.selectFrom(t).select('id').executeTakeFirstOrThrow()).id);
  await q
    .insertInto('batches')
    .values({
      vendor_id: await ids('vendors'),
      batch_id: 'B-1',
      batch_key: 'b-1',
      peptide_id: await ids('peptides'),
      purity: 99,
      lab_id: await ids('labs'),
      test_method: 'HPLC',
      tested_at: new Date(Date.now() - 86_400_000).toISOString(),
      status: 'approved',
    })
    .execute();
}

describe.each(DIALECTS)('upgrading a method v0 database (%s)', (dialect) => {
  it('migration 0002 computes the pillars of existing vendors from their evidence, once', async () => {
    const target = await createTestDatabase(dialect);
    try {
      const v0 = await openStore(parseDatabaseUrl(target.url), { migrate: false });
      await loadV0(v0.kysely as unknown as Kysely<unknown>, v0.caps);
      expect((await v0.catalog.listVendors())[0]).toMatchObject({ slug: 'old', score: null });
      await v0.close();

      const v1 = await openStore(parseDatabaseUrl(target.url));
      try {
        const [vendor] = await v1.catalog.listVendors();
        expect(vendor).toMatchObject({ slug: 'old', pending: false });
        expect(vendor!.score).toEqual(expect.any(Number));
        const history = await v1.kysely.selectFrom('score_history').select('reason').execute();
        expect(history).toEqual([{ reason: 'method v1' }]);
        expect(await v1.migrate()).toEqual([]);
        expect(await v1.kysely.selectFrom('score_history').select('reason').execute()).toHaveLength(1);
      } finally {
        await v1.close();
      }
    } finally {
      await target.drop();
    }
  });
});

import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Labs, peptides and vendor names change far less often than data: the CoA verifier keeps its
 * registry (core/coa/directory.ts) until this moves, and a pending submission bumps data_version,
 * not this. Its own migration, after 0003: databases already migrated by 0003 must get it too.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  await db.schema
    .alterTable('data_state')
    .addColumn('registry_version', caps.bigIntType, (c) => c.notNull().defaultTo(0))
    .execute();
}

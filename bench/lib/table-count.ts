import type { Kysely } from 'kysely';
import type { Database } from '../../src/storage/schema.ts';

/** Rows in one table of the scale database (the bench's sanity checks and size detection). */
export async function tableCount(
  db: Kysely<Database>,
  table: 'vendors' | 'batches' | 'reviews' | 'overrides',
) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

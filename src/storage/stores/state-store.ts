import { type Kysely, sql, type Transaction } from 'kysely';
import type { DataState, StateStore } from '../../core/ports.ts';
import type { DialectCapabilities } from '../dialect.ts';
import { CHANGE_CHANNEL } from '../postgres/connect.ts';
import type { Database } from '../schema.ts';

export class KyselyStateStore implements StateStore {
  constructor(
    private readonly db: Kysely<Database>,
    readonly externalChangeSuspected: () => boolean,
  ) {}

  async read(): Promise<DataState> {
    const row = await this.db
      .selectFrom('data_state')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return {
      dataVersion: Number(row.data_version),
      keysVersion: Number(row.keys_version),
      registryVersion: Number(row.registry_version),
      dataUpdatedAt: row.data_updated_at,
    };
  }
}

/**
 * Called inside the writing transaction, so a version bump commits or rolls back with the change
 * it announces. On PostgreSQL it also NOTIFYs other instances (delivered at commit).
 */
export async function bumpVersion(
  trx: Transaction<Database>,
  caps: DialectCapabilities,
  what: 'data' | 'keys' | 'registry',
  nowIso: string,
): Promise<void> {
  if (what === 'registry') {
    // Always inside a data write, whose own bump notifies other instances.
    await trx
      .updateTable('data_state')
      .set((eb) => ({ registry_version: eb('registry_version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
    return;
  }
  if (what === 'data') {
    await trx
      .updateTable('data_state')
      .set((eb) => ({ data_version: eb('data_version', '+', 1), data_updated_at: nowIso }))
      .where('id', '=', 1)
      .execute();
  } else {
    await trx
      .updateTable('data_state')
      .set((eb) => ({ keys_version: eb('keys_version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
  }
  if (caps.name === 'postgres') await sql`select pg_notify(${CHANGE_CHANNEL}, ${what})`.execute(trx);
}

/**
 * Serialises every catalog writer: the first statement of a write transaction. On PostgreSQL it
 * row-locks `data_state` until commit, so concurrent writes to the same vendors cannot interleave
 * their read-recompute-write, and outbox `seq` values are handed out in commit order (a reader
 * paging by `seq` never skips an event committed late). On SQLite it takes the write lock at once,
 * before anything is read, so a transaction never works from a snapshot another writer has
 * already moved past. Writes are rare next to reads; one at a time costs nothing that matters.
 */
export async function lockForWrite(trx: Transaction<Database>): Promise<number> {
  await trx
    .updateTable('data_state')
    .set((eb) => ({ data_version: eb.ref('data_version') }))
    .where('id', '=', 1)
    .execute();
  const row = await trx
    .selectFrom('data_state')
    .select('data_version')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  // Writers are serialised from here on, so the version this write will commit is the next one.
  return Number(row.data_version) + 1;
}

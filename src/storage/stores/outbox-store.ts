import type { Kysely, Selectable, Transaction } from 'kysely';
import { newEventId } from '../../core/events/ids.ts';
import type { EventQuery, NewEvent, StoredEvent } from '../../core/events/model.ts';
import type { Database, OutboxTable } from '../schema.ts';
import { chunked } from './upsert.ts';

/** Appends events inside the caller's transaction: they commit or roll back with their change. */
export async function appendEvents(trx: Transaction<Database>, events: readonly NewEvent[], nowIso: string) {
  const rows = events.map((e) => ({
    id: newEventId(),
    type: e.type,
    vendor_slug: e.data.vendor_slug,
    data: JSON.stringify(e.data),
    created_at: nowIso,
  }));
  for (const part of chunked(rows, 1000)) await trx.insertInto('outbox').values(part).execute();
}

export class KyselyOutboxStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Oldest first (newest first when asked), between `after` and `before` (`seq`s), of one type or vendor. */
  async list(q: EventQuery): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .selectAll()
      .$if(q.after !== undefined, (b) => b.where('seq', '>', q.after!))
      .$if(q.before !== undefined, (b) => b.where('seq', '<', q.before!))
      .$if(q.type !== undefined, (b) => b.where('type', '=', q.type!))
      .$if(q.vendorSlug !== undefined, (b) => b.where('vendor_slug', '=', q.vendorSlug!))
      .orderBy('seq', q.newestFirst ? 'desc' : 'asc')
      .limit(q.limit)
      .execute();
    // Rows are written only by appendEvents from the core's typed events: the pair (type, data)
    // read back is one of the union's members.
    return rows.map(storedEventFromRow);
  }
}

/**
 * An outbox row as the core's event. Rows are written only by appendEvents from the core's typed
 * events, so the pair (type, data) read back is one of the union's members.
 */
export const storedEventFromRow = (r: Selectable<OutboxTable>): StoredEvent =>
  ({
    seq: Number(r.seq),
    id: r.id,
    type: r.type,
    vendorSlug: r.vendor_slug,
    data: JSON.parse(r.data),
    createdAt: r.created_at,
  }) as StoredEvent;

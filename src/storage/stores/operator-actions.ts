import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  ActionDetails,
  ActionQuery,
  NewOperatorAction,
  OperatorAction,
  OperatorActionKind,
} from '../../core/operator/actions.ts';
import type { Database, OperatorActionsTable } from '../schema.ts';

/**
 * Appends operator decisions inside the caller's transaction (the write that makes the change), so
 * they commit or roll back with it, as outbox events do.
 */
export async function appendActions(
  trx: Transaction<Database>,
  actions: readonly NewOperatorAction[],
  nowIso: string,
): Promise<void> {
  if (actions.length === 0) return;
  await trx
    .insertInto('operator_actions')
    .values(
      actions.map((a) => ({
        at: nowIso,
        actor: a.actor,
        action: a.action,
        vendor_slug: a.vendorSlug,
        subject: a.subject,
        reason: a.reason,
        details: a.details === null ? null : JSON.stringify(a.details),
      })),
    )
    .execute();
}

/** Newest first, narrowed as asked; the core has checked the bounds (checkActionQuery). */
export async function listActions(db: Kysely<Database>, q: ActionQuery): Promise<OperatorAction[]> {
  // An empty list of kinds asks for nothing (and `in ()` is not SQL).
  if (q.kinds?.length === 0) return [];
  const rows = await db
    .selectFrom('operator_actions')
    .selectAll()
    .$if(q.vendorSlug !== undefined, (b) => b.where('vendor_slug', '=', q.vendorSlug!))
    .$if(q.subject !== undefined, (b) => b.where('subject', '=', q.subject!))
    .$if(q.kinds !== undefined, (b) => b.where('action', 'in', [...q.kinds!]))
    .$if(q.before !== undefined, (b) => b.where('id', '<', q.before!))
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute();
  return rows.map(actionFromRow);
}

/** Rows are written only by appendActions from the core's entries. */
const actionFromRow = (r: Selectable<OperatorActionsTable>): OperatorAction => ({
  id: Number(r.id),
  at: r.at,
  actor: r.actor,
  action: r.action as OperatorActionKind,
  vendorSlug: r.vendor_slug,
  subject: r.subject,
  reason: r.reason,
  details: r.details === null ? null : (JSON.parse(r.details) as ActionDetails),
});

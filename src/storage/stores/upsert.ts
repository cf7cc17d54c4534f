import type { Insertable, Transaction } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database } from '../schema.ts';

type Table = keyof Database;

/**
 * Multi-row `INSERT … ON CONFLICT (…) DO UPDATE` in chunks that stay under the dialect's bind
 * parameter limit. Rows are grouped by which columns they carry, and on conflict only those
 * columns are updated: an import line that omits an optional field keeps the stored value.
 * The row type is checked by callers; the casts below only bridge Kysely's per-table generics.
 */
export async function upsertRows<T extends Table>(
  trx: Transaction<Database>,
  caps: DialectCapabilities,
  table: T,
  rows: Partial<Insertable<Database[T]>>[],
  conflict: readonly string[],
  opts: { defaults?: Partial<Insertable<Database[T]>>; doNothing?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const present = Object.keys(row as object).filter(
      (k) => (row as Record<string, unknown>)[k] !== undefined,
    );
    const sig = present.sort().join(',');
    const list = groups.get(sig);
    const full = { ...opts.defaults, ...stripUndefined(row as Record<string, unknown>) };
    if (list) list.push(full);
    else groups.set(sig, [full]);
  }
  for (const [sig, group] of groups) {
    const provided = sig.split(',');
    const columns = Object.keys(group[0]!);
    const update = provided.filter((c) => !conflict.includes(c));
    const perChunk = Math.max(1, Math.floor(caps.maxParameters / columns.length) - 1);
    for (let i = 0; i < group.length; i += perChunk) {
      const chunk = group.slice(i, i + perChunk);
      await trx
        .insertInto(table)
        .values(chunk as never)
        .onConflict((oc) => {
          const target = oc.columns(conflict as never);
          if (opts.doNothing || update.length === 0) return target.doNothing();
          return target.doUpdateSet((eb) => {
            const set: Record<string, unknown> = {};
            for (const c of update) set[c] = eb.ref(`excluded.${c}` as never);
            return set as never;
          });
        })
        .execute();
    }
  }
}

function stripUndefined(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (v !== undefined) out[k] = v;
  return out;
}

/** Splits a list so an `IN (…)` list stays under the parameter limit. */
export function* chunked<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

import type { Kysely } from 'kysely';
import { emptyImportBatch, type ImportBatch, type ImportRecord } from '../../src/core/import/records.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import type { Database } from '../../src/storage/schema.ts';
import { createTestDatabase, type Dialect } from '../support/databases.ts';

/** 2026-06-01T12:00:00.000Z, the "now" of storage and import tests. */
export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
export const NOW_ISO = new Date(T0).toISOString();

export interface FreshStore {
  store: OpenedStore;
  url: string;
  /** Opens another store on the same database (another process or instance). */
  openSecond(): Promise<OpenedStore>;
  close(): Promise<void>;
}

/** A migrated store on its own fresh database; close() closes every store opened on it and drops it. */
export async function openFreshStore(dialect: Dialect): Promise<FreshStore> {
  const db = await createTestDatabase(dialect);
  const stores: OpenedStore[] = [];
  const open = async () => {
    const s = await openStore(parseDatabaseUrl(db.url));
    stores.push(s);
    return s;
  };
  const store = await open();
  return {
    store,
    url: db.url,
    openSecond: open,
    async close() {
      for (const s of stores.splice(0)) await s.close();
      await db.drop();
    },
  };
}

/** Groups records by type, as the import parser does. */
export function importBatch(records: readonly ImportRecord[]): ImportBatch {
  const b = emptyImportBatch();
  for (const r of records) (b[r.type] as ImportRecord[]).push(r);
  return b;
}

export const TABLES = [
  'accounts',
  'api_keys',
  'vendors',
  'overrides',
  'score_history',
  'peptides',
  'peptide_aliases',
  'labs',
  'prices',
  'batches',
  'reviews',
  'replies',
  'rate_limit_hits',
  'outbox',
  'coa_verifications',
] as const satisfies readonly (keyof Database)[];

export type TableName = (typeof TABLES)[number];

/**
 * Every row of every data table (data_state aside), rows sorted so the dump does not depend on
 * physical order. `omit` drops columns that may legitimately differ (e.g. `vendors.updated_at`).
 */
export async function dumpTables(
  db: Kysely<Database>,
  omit: Partial<Record<TableName, string[]>> = {},
): Promise<Record<TableName, Record<string, unknown>[]>> {
  const out = {} as Record<TableName, Record<string, unknown>[]>;
  for (const table of TABLES) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    const drop = new Set(omit[table] ?? []);
    out[table] = rows
      .map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.has(k))))
      .sort((a, b) =>
        JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0,
      );
  }
  return out;
}

/** Row counts of every data table. */
export async function countRows(db: Kysely<Database>): Promise<Record<TableName, number>> {
  const out = {} as Record<TableName, number>;
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

/** Five pillar overrides that make a vendor scored. */
export function pillarOverrides(
  vendorSlug: string,
  values: { coa: number; purity: number; sentiment: number; transparency: number; experience: number },
): ImportRecord[] {
  return Object.entries(values).map(([field, value]) => ({
    type: 'override',
    vendorSlug,
    field: field as 'coa',
    value,
    reason: 'contract test',
  }));
}

/** Polls `probe` until it returns true or `timeoutMs` passes; returns the elapsed ms or null. */
export async function waitFor(probe: () => boolean, timeoutMs: number, stepMs = 10): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start <= timeoutMs) {
    if (probe()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return null;
}

import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';
import type { Database } from '../schema.ts';
import * as m0001 from './0001-initial.ts';
import * as m0002 from './0002-outbox-and-audit.ts';
import * as m0003 from './0003-coa-verifications.ts';
import * as m0004 from './0004-registry-version.ts';
import * as m0005 from './0005-webhooks.ts';
import * as m0006 from './0006-webhook-retention-index.ts';
import * as m0007 from './0007-users-sessions-usage.ts';
import * as m0008 from './0008-operator-actions.ts';
import * as m0009 from './0009-price-changes.ts';

interface NumberedMigration {
  up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void>;
}

/** Numbered, append-only. The same list serves both dialects; caps carries the differences. */
const MIGRATIONS: Record<string, NumberedMigration> = {
  '0001-initial': m0001,
  '0002-outbox-and-audit': m0002,
  '0003-coa-verifications': m0003,
  '0004-registry-version': m0004,
  '0005-webhooks': m0005,
  '0006-webhook-retention-index': m0006,
  '0007-users-sessions-usage': m0007,
  '0008-operator-actions': m0008,
  '0009-price-changes': m0009,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly caps: DialectCapabilities) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, mig] of Object.entries(MIGRATIONS)) {
      out[name] = { up: (db) => mig.up(db, this.caps) };
    }
    return out;
  }
}

export interface MigrationReport {
  applied: string[];
}

/** Brings the schema to the newest version; safe to call on every start. */
export async function migrateToLatest(
  db: Kysely<Database>,
  caps: DialectCapabilities,
): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: new StaticProvider(caps) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

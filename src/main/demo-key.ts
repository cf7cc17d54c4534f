import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Container } from '../container.ts';
import type { AuthResult } from '../core/keys/authenticate.ts';
import { createKey } from '../core/keys/manage-keys.ts';
import { DEMO_ACCOUNT } from '../seed/demo-dataset.ts';
import { seedDemoUsage } from '../seed/demo-usage.ts';
import { seedDemo } from '../seed/seed-demo.ts';

/**
 * First-start convenience for a newcomer: load the demo dataset into an empty database and keep a
 * demo key in a file beside the SQLite database (mode 0600), so every start can print a working
 * key although keys are stored only as hashes. A revoked or deleted demo key is replaced.
 */
export async function prepareDemo(c: Container): Promise<{ seeded: boolean; key: string | null }> {
  let seeded = false;
  const empty = (await c.store.kysely.selectFrom('vendors').select('id').limit(1).execute()).length === 0;
  if (empty) {
    await seedDemo({ store: c.store.imports, clock: c.clock });
    await c.freshness.refresh();
    seeded = true;
  }
  if (!(await c.store.accounts.findByName(DEMO_ACCOUNT))) return { seeded, key: null };
  const file = join(
    c.store.dialect === 'sqlite' ? dirname(sqlitePath(c.config.databaseUrl)) : 'data',
    'demo-api-key',
  );
  let key: string | null = null;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch {
    key = null;
  }
  if (key && live(await c.auth.authenticate(`Bearer ${key}`), c.clock.now())) return { seeded, key };
  const created = await createKey(c.store, DEMO_ACCOUNT, 'demo (printed at start-up)');
  key = created.key;
  // A usage history, so the dashboard's charts show something on the first start (once per database).
  await seedDemoUsage({ usage: c.store.usage, clock: c.clock }, created.info.accountId, created.info.id);
  await c.freshness.refresh();
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
  } catch {
    // Not fatal: the key is still printed for this run.
  }
  return { seeded, key };
}

/** A valid key that has not expired after a roll (the authenticator leaves the time to its callers). */
const live = (auth: AuthResult, nowMs: number): boolean =>
  auth.ok && (auth.principal.expiresAtMs === null || auth.principal.expiresAtMs > nowMs);

const sqlitePath = (url: string): string => url.replace(/^(sqlite|file):(\/\/)?/i, '');

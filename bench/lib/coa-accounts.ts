import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { createKey } from '../../src/core/keys/manage-keys.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';

/**
 * The buyers of the `coa` scenario. One account may have only COA_MAX_OPEN_SUBMISSIONS (default
 * 100) uploads awaiting review, so a flood of pending_review uploads from ONE account would be
 * refused (429) after a few seconds; a real flood comes from many buyers. Each gets an enterprise
 * account with one key, created in the scenario's own copy of the database (fresh every run: no
 * quota spent, no submission open), so nothing is added to the scale database.
 */

/** Pending submissions planned per account: under the default limit of 100 open, with room. */
export const PENDING_PER_ACCOUNT = 80;

export async function createBuyers(dbPath: string, count: number): Promise<string[]> {
  const store = await openStore(parseDatabaseUrl(`sqlite:${dbPath}`));
  try {
    const keys: string[] = [];
    for (let i = 0; i < count; i++) {
      const name = `bench-buyer-${String(i).padStart(3, '0')}`;
      await createAccount(store, { name, plan: 'enterprise' });
      keys.push((await createKey(store, name, 'bench coa')).key);
    }
    return keys;
  } finally {
    await store.close();
  }
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { PostgresChangeListener } from '../../src/storage/postgres/connect.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore, waitFor } from './support.ts';

const vendorImport = (slug: string) => importBatch([{ type: 'vendor', slug, name: slug }]);

describe.each(DIALECTS)('storage contract: change detection (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let other: OpenedStore;

  beforeEach(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    other = await fresh.openSecond();
  });
  afterEach(async () => fresh?.close());

  it('reports the instance’s own committed writes at once (and, on SQLite, exactly once)', async () => {
    // PostgreSQL's safety-net poll may raise the flag at any moment, so only "true at once" is exact there.
    const exact = dialect === 'sqlite';
    store.state.externalChangeSuspected();
    if (exact) expect(store.state.externalChangeSuspected()).toBe(false);
    await store.imports.apply(vendorImport('own'), { nowIso: NOW_ISO, reason: 't' });
    expect(store.state.externalChangeSuspected()).toBe(true);
    if (exact) expect(store.state.externalChangeSuspected()).toBe(false);
    await store.accounts.create({ name: 'own-acct', plan: 'pro' });
    expect(store.state.externalChangeSuspected()).toBe(true);
    if (exact) expect(store.state.externalChangeSuspected()).toBe(false);
    const key = { id: 'key_own', accountId: (await store.accounts.findByName('own-acct'))!.id, name: null };
    await store.keys.insert({ ...key, prefix: 'prk_live_Own0', hash: 'f'.repeat(64) });
    expect(store.state.externalChangeSuspected()).toBe(true);
    await store.keys.revoke('key_own');
    expect(store.state.externalChangeSuspected()).toBe(true);
    if (exact) {
      await store.keys.revoke('key_own'); // already revoked: nothing committed
      expect(store.state.externalChangeSuspected()).toBe(false);
    }
  });

  it.runIf(dialect === 'sqlite')(
    'SQLite: a commit by a second store on the same file is seen once, reads are not',
    async () => {
      // Drain whatever opening the second store (migration check) may have done.
      store.state.externalChangeSuspected();
      expect(store.state.externalChangeSuspected()).toBe(false);

      await other.catalog.listVendors();
      await other.state.read();
      expect(store.state.externalChangeSuspected()).toBe(false);

      await other.imports.apply(vendorImport('from-other'), { nowIso: NOW_ISO, reason: 't' });
      expect(store.state.externalChangeSuspected()).toBe(true);
      expect(store.state.externalChangeSuspected()).toBe(false);
      // The second store's own signal fired too, and the first store sees the data.
      expect(other.state.externalChangeSuspected()).toBe(true);
      expect((await store.catalog.listVendors()).map((v) => v.slug)).toContain('from-other');

      await other.keys.revoke('key_does_not_exist'); // changes nothing, commits nothing visible
      await other.accounts.create({ name: 'other-acct', plan: 'free' });
      expect(store.state.externalChangeSuspected()).toBe(true);
      expect(store.state.externalChangeSuspected()).toBe(false);
    },
  );

  it.runIf(dialect === 'postgres')(
    'PostgreSQL: a commit by a second store is seen within 1.5 s',
    async () => {
      await other.imports.apply(vendorImport('from-other'), { nowIso: NOW_ISO, reason: 't' });
      expect(await waitFor(() => store.state.externalChangeSuspected(), 1500)).not.toBeNull();
      expect((await store.catalog.listVendors()).map((v) => v.slug)).toContain('from-other');
    },
  );

  it.runIf(dialect === 'postgres')(
    'PostgreSQL: NOTIFY alone (no poll) reports commits promptly and skips rollbacks',
    async () => {
      const listener = new PostgresChangeListener(fresh.url, 3_600_000);
      await listener.start();
      try {
        listener.probe();
        expect(listener.probe()).toBe(false);

        await other.imports.apply(vendorImport('notified'), { nowIso: NOW_ISO, reason: 't' });
        expect(await waitFor(listener.probe, 1500)).not.toBeNull();
        expect(listener.probe()).toBe(false);

        await other.keys.revoke('key_does_not_exist');
        await expect(
          other.imports.applyChunks(
            (function* () {
              yield vendorImport('rolled-back');
              throw new Error('abort');
            })(),
            { nowIso: NOW_ISO, reason: 't' },
          ),
        ).rejects.toThrow('abort');
        await new Promise((r) => setTimeout(r, 300));
        expect(listener.probe()).toBe(false);

        await other.accounts.create({ name: 'pg-acct', plan: 'pro' });
        expect(await waitFor(listener.probe, 1500)).not.toBeNull();
      } finally {
        await listener.stop();
      }
    },
  );
});

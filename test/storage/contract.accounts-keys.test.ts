import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/core/accounts/model.ts';
import { hashKey } from '../../src/core/keys/api-key.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { createTestDatabase, DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore } from './support.ts';

describe.each(DIALECTS)('storage contract: migrations (%s)', (dialect) => {
  it('applies every migration once; migrating again applies nothing and keeps the data', async () => {
    const db = await createTestDatabase(dialect);
    const store = await openStore(parseDatabaseUrl(db.url), { migrate: false });
    try {
      expect(await store.migrate()).toEqual([
        '0001-initial',
        '0002-outbox-and-audit',
        '0003-coa-verifications',
        '0004-registry-version',
        '0005-webhooks',
        '0006-webhook-retention-index',
        '0007-users-sessions-usage',
        '0008-operator-actions',
        '0009-price-changes',
      ]);
      await store.accounts.create({ name: 'survivor', plan: 'pro' });
      expect(await store.migrate()).toEqual([]);
      expect(await store.migrate()).toEqual([]);
      expect((await store.accounts.findByName('survivor'))?.plan).toBe('pro');
    } finally {
      await store.close();
      await db.drop();
    }
  });

  it('opening an already migrated database (openStore migrates) is not an error', async () => {
    const fresh = await openFreshStore(dialect);
    try {
      const second = await fresh.openSecond();
      expect(await second.migrate()).toEqual([]);
      expect(await fresh.store.migrate()).toEqual([]);
      expect((await second.state.read()).dataVersion).toBe((await fresh.store.state.read()).dataVersion);
    } finally {
      await fresh.close();
    }
  });
});

describe.each(DIALECTS)('storage contract: accounts and keys (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let acme: Account;
  let other: Account;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    acme = await store.accounts.create({ name: 'acme', plan: 'pro' });
    other = await store.accounts.create({
      name: 'Zeta Labs',
      plan: 'custom',
      rateLimitA: 50,
      rateLimitB: 900,
    });
  });
  afterAll(async () => fresh?.close());

  it('creates accounts and finds them by exact name', async () => {
    expect(acme).toMatchObject({ name: 'acme', plan: 'pro', rateLimitA: null, rateLimitB: null });
    expect(acme.id).toEqual(expect.any(Number));
    expect(Number.isNaN(Date.parse(acme.createdAt))).toBe(false);
    expect(other).toMatchObject({ plan: 'custom', rateLimitA: 50, rateLimitB: 900 });
    expect(await store.accounts.findByName('acme')).toEqual(acme);
    expect(await store.accounts.findByName('Zeta Labs')).toEqual(other);
    expect(await store.accounts.findByName('ACME')).toBeNull();
    expect(await store.accounts.findByName('nobody')).toBeNull();
  });

  it('lists accounts ordered by name', async () => {
    await store.accounts.create({ name: 'beta', plan: 'free' });
    const names = (await store.accounts.list()).map((a) => a.name);
    expect(names).toEqual(['Zeta Labs', 'acme', 'beta']);
  });

  it('refuses a second account with the same name', async () => {
    await expect(store.accounts.create({ name: 'acme', plan: 'free' })).rejects.toThrow();
    expect((await store.accounts.list()).filter((a) => a.name === 'acme')).toHaveLength(1);
  });

  it('inserts keys and finds them by hash with the principal and revoked flag', async () => {
    const info = await store.keys.insert({
      id: 'key_find_1',
      accountId: other.id,
      name: 'ci',
      prefix: 'prk_live_Fnd1',
      hash: hashKey('find-1'),
    });
    expect(info).toMatchObject({
      id: 'key_find_1',
      accountId: other.id,
      name: 'ci',
      prefix: 'prk_live_Fnd1',
      revokedAt: null,
    });
    expect(await store.keys.findByHash(hashKey('find-1'))).toEqual({
      keyId: 'key_find_1',
      accountId: other.id,
      accountName: 'Zeta Labs',
      plan: 'custom',
      rateLimitA: 50,
      rateLimitB: 900,
      expiresAtMs: null,
      revoked: false,
    });
    expect(await store.keys.findByHash(hashKey('nope'))).toBeNull();
  });

  it('refuses a duplicate key hash', async () => {
    await store.keys.insert({
      id: 'key_dup_1',
      accountId: acme.id,
      name: null,
      prefix: 'prk_live_Dup1',
      hash: hashKey('dup'),
    });
    await expect(
      store.keys.insert({
        id: 'key_dup_2',
        accountId: acme.id,
        name: null,
        prefix: 'prk_live_Dup1',
        hash: hashKey('dup'),
      }),
    ).rejects.toThrow();
    expect((await store.keys.findForRevocation({ prefix: 'prk_live_Dup1' })).map((k) => k.id)).toEqual([
      'key_dup_1',
    ]);
  });

  it('lists the keys of one account only', async () => {
    const acct = await store.accounts.create({ name: 'lister', plan: 'enterprise' });
    await store.keys.insert({
      id: 'key_l_b',
      accountId: acct.id,
      name: 'b',
      prefix: 'prk_live_LstB',
      hash: hashKey('lb'),
    });
    await store.keys.insert({
      id: 'key_l_a',
      accountId: acct.id,
      name: null,
      prefix: 'prk_live_LstA',
      hash: hashKey('la'),
    });
    const listed = await store.keys.listForAccount(acct.id);
    expect(listed.map((k) => k.id).sort()).toEqual(['key_l_a', 'key_l_b']);
    expect(listed.every((k) => k.accountId === acct.id && k.revokedAt === null)).toBe(true);
    expect(listed.find((k) => k.id === 'key_l_a')?.name).toBeNull();
    expect(await store.keys.listForAccount(999_999)).toEqual([]);
  });

  it('finds keys for revocation by id, by display prefix and by hash', async () => {
    await store.keys.insert({
      id: 'key_rev_1',
      accountId: acme.id,
      name: null,
      prefix: 'prk_live_Rev1',
      hash: hashKey('r1'),
    });
    await store.keys.insert({
      id: 'key_rev_2',
      accountId: acme.id,
      name: null,
      prefix: 'prk_live_Rev1',
      hash: hashKey('r2'),
    });
    expect((await store.keys.findForRevocation({ id: 'key_rev_1' })).map((k) => k.id)).toEqual(['key_rev_1']);
    expect((await store.keys.findForRevocation({ hash: hashKey('r2') })).map((k) => k.id)).toEqual([
      'key_rev_2',
    ]);
    expect((await store.keys.findForRevocation({ prefix: 'prk_live_Rev1' })).map((k) => k.id).sort()).toEqual(
      ['key_rev_1', 'key_rev_2'],
    );
    expect(await store.keys.findForRevocation({ id: 'key_nope' })).toEqual([]);
    expect(await store.keys.findForRevocation({ prefix: 'prk_live_Nope' })).toEqual([]);
    expect(await store.keys.findForRevocation({})).toEqual([]);
  });

  it('revokes a key once: the second revoke returns null and leaves it revoked', async () => {
    await store.keys.insert({
      id: 'key_gone',
      accountId: acme.id,
      name: null,
      prefix: 'prk_live_Gone',
      hash: hashKey('gone'),
    });
    const before = await store.state.read();
    const revoked = await store.keys.revoke('key_gone');
    expect(revoked?.id).toBe('key_gone');
    expect(Number.isNaN(Date.parse(revoked?.revokedAt ?? ''))).toBe(false);
    const afterFirst = await store.state.read();
    expect(afterFirst.keysVersion).toBe(before.keysVersion + 1);

    expect(await store.keys.revoke('key_gone')).toBeNull();
    expect(await store.keys.revoke('key_never_existed')).toBeNull();
    expect((await store.state.read()).keysVersion).toBe(afterFirst.keysVersion);
    expect((await store.keys.findByHash(hashKey('gone')))?.revoked).toBe(true);
    expect((await store.keys.findForRevocation({ id: 'key_gone' }))[0]?.revokedAt).toBe(revoked?.revokedAt);
  });

  it('bumps keys_version (not data_version) on account and key changes, and nothing on reads', async () => {
    const v0 = await store.state.read();
    const acct = await store.accounts.create({ name: 'versioned', plan: 'pro' });
    const v1 = await store.state.read();
    expect(v1.keysVersion).toBe(v0.keysVersion + 1);
    expect(v1.dataVersion).toBe(v0.dataVersion);
    expect(v1.dataUpdatedAt).toBe(v0.dataUpdatedAt);

    await store.keys.insert({
      id: 'key_ver',
      accountId: acct.id,
      name: null,
      prefix: 'prk_live_Ver0',
      hash: hashKey('ver'),
    });
    const v2 = await store.state.read();
    expect(v2.keysVersion).toBe(v1.keysVersion + 1);

    await store.accounts.findByName('versioned');
    await store.accounts.list();
    await store.keys.findByHash(hashKey('ver'));
    await store.keys.listForAccount(acct.id);
    await store.keys.findForRevocation({ id: 'key_ver' });
    await store.catalog.listVendors();
    await store.catalog.listPeptides();
    await store.batches.findByKey('x');
    await store.rateLimits.loadHits(0);
    expect(await store.state.read()).toEqual(v2);

    await store.keys.revoke('key_ver');
    expect((await store.state.read()).keysVersion).toBe(v2.keysVersion + 1);
    expect((await store.state.read()).dataVersion).toBe(v0.dataVersion);
  });

  it('keeps a failed account or key insert from bumping keys_version', async () => {
    const v0 = await store.state.read();
    await expect(store.accounts.create({ name: 'acme', plan: 'pro' })).rejects.toThrow();
    await expect(
      store.keys.insert({
        id: 'key_orphan',
        accountId: 987_654,
        name: null,
        prefix: 'prk_live_Orph',
        hash: hashKey('orphan'),
      }),
    ).rejects.toThrow();
    expect(await store.state.read()).toEqual(v0);
    expect(await store.keys.findByHash(hashKey('orphan'))).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import type { Account } from '../../../src/core/accounts/model.ts';
import { HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import { DomainError } from '../../../src/core/errors.ts';
import { AccountKeys, MAX_LIVE_KEYS } from '../../../src/core/keys/account-keys.ts';
import { hashKey, isWellFormedKey } from '../../../src/core/keys/api-key.ts';
import { createKey } from '../../../src/core/keys/manage-keys.ts';
import type { RollOverlap } from '../../../src/core/keys/model.ts';
import { UsageMeter } from '../../../src/core/usage/usage-meter.ts';
import type { OpenedStore } from '../../../src/storage/open-store.ts';
import { type FreshStore, openFreshStore, T0 } from '../../storage/support.ts';
import { DIALECTS } from '../../support/databases.ts';

/** The DomainError a promise rejects with (fails if it resolves or throws anything else). */
async function errorOf(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe.each(DIALECTS)('an account manages its own keys (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let clock: ManualClock;
  let meter: UsageMeter;
  let keys: AccountKeys;
  let acme: Account;
  let zeta: Account;
  const keysVersion = async () => (await store.state.read()).keysVersion;
  /** The stored row, as written. */
  const row = (id: string) =>
    store.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    clock = new ManualClock(T0);
    meter = new UsageMeter({ clock, store: store.usage, flushIntervalMs: 3_600_000 });
    keys = new AccountKeys({
      accounts: store.accounts,
      keys: store.keys,
      usage: store.usage,
      pending: meter,
      clock,
    });
    acme = await createAccount(store, { name: 'acme', plan: 'enterprise' });
    zeta = await createAccount(store, { name: 'zeta', plan: 'pro' });
  });
  afterAll(async () => {
    await meter?.close();
    await fresh?.close();
  });

  describe('create', () => {
    it('returns the key once, stores only its hash, and bumps the keys version', async () => {
      const before = await keysVersion();
      const { key, info } = await keys.create(acme.id, '  CI deploys  ');
      expect(isWellFormedKey(key)).toBe(true);
      expect(info).toEqual({
        id: expect.stringMatching(/^key_/),
        accountId: acme.id,
        name: 'CI deploys',
        prefix: key.slice(0, 13),
        createdAt: new Date(T0).toISOString(),
        revokedAt: null,
        expiresAt: null,
        rolledTo: null,
        lastUsedAt: null,
        state: 'active',
      });
      expect((await row(info.id))?.hash).toBe(hashKey(key));
      expect(Object.values((await row(info.id))!)).not.toContain(key);
      expect(await keysVersion()).toBe(before + 1);
      expect((await keys.list(acme.id)).map((k) => k.id)).toContain(info.id);
    });

    it('an empty name is no name', async () => {
      expect((await keys.create(acme.id, '   ')).info.name).toBeNull();
      expect((await keys.create(acme.id, null)).info.name).toBeNull();
    });

    it.each([
      ['over 100 characters', 'x'.repeat(101)],
      ['a line break', 'two\nlines'],
      ['an escape', 'red\u001b[31m'],
    ])('refuses a name with %s (invalid_parameter naming `name`), creating nothing', async (_what, name) => {
      const before = (await keys.list(acme.id)).length;
      const err = await errorOf(keys.create(acme.id, name));
      expect(err.code).toBe('invalid_parameter');
      expect(err.details).toEqual({ parameter: 'name' });
      expect(await keys.list(acme.id)).toHaveLength(before);
    });

    it('the CLI shares the rule: 100 characters pass, 101 do not', async () => {
      expect((await createKey(store, 'acme', 'y'.repeat(100))).info.name).toHaveLength(100);
      expect((await errorOf(createKey(store, 'acme', 'y'.repeat(101)))).code).toBe('invalid_parameter');
      expect((await errorOf(createKey(store, 'acme', 'a\tb'))).code).toBe('invalid_parameter');
    });

    it(`an account holds at most ${MAX_LIVE_KEYS} live keys (conflict); revoking one makes room`, async () => {
      const crowd = await createAccount(store, { name: 'crowd', plan: 'pro' });
      const made = [];
      for (let i = 0; i < MAX_LIVE_KEYS; i++) made.push((await keys.create(crowd.id, null)).info);
      const err = await errorOf(keys.create(crowd.id, 'one too many'));
      expect(err.code).toBe('conflict');
      expect(await keys.list(crowd.id)).toHaveLength(MAX_LIVE_KEYS);
      await keys.revoke(crowd.id, made[0]!.id);
      expect((await keys.create(crowd.id, 'room again')).info.state).toBe('active');
    });

    it('refuses an account that does not exist', async () => {
      expect((await errorOf(keys.create(999_999, 'x'))).code).toBe('not_found');
    });
  });

  describe('revoke', () => {
    it('revokes, bumps the keys version, and the store reports the key revoked', async () => {
      const { key, info } = await keys.create(acme.id, 'doomed');
      const before = await keysVersion();
      const revoked = await keys.revoke(acme.id, info.id);
      expect(revoked).toMatchObject({ id: info.id, state: 'revoked', revokedAt: new Date(T0).toISOString() });
      expect(await keysVersion()).toBe(before + 1);
      expect((await store.keys.findByHash(hashKey(key)))?.revoked).toBe(true);
    });

    it('a second revocation is a conflict and changes nothing', async () => {
      const { info } = await keys.create(acme.id, null);
      await keys.revoke(acme.id, info.id);
      const before = await keysVersion();
      expect((await errorOf(keys.revoke(acme.id, info.id))).code).toBe('conflict');
      expect(await keysVersion()).toBe(before);
    });

    it("another account's key is not_found exactly like a missing one, and keeps working", async () => {
      const { key, info } = await keys.create(zeta.id, 'theirs');
      const other = await errorOf(keys.revoke(acme.id, info.id));
      const missing = await errorOf(keys.revoke(acme.id, 'key_00000000000000000000'));
      expect(other.code).toBe('not_found');
      expect(missing.code).toBe('not_found');
      expect(other.message.replace(info.id, 'ID')).toBe(
        missing.message.replace('key_00000000000000000000', 'ID'),
      );
      expect((await errorOf(keys.roll(acme.id, info.id, 3600))).code).toBe('not_found');
      expect((await store.keys.findByHash(hashKey(key)))?.revoked).toBe(false);
      expect((await row(info.id))?.rolled_to).toBeNull();
      expect((await keys.list(acme.id)).some((k) => k.id === info.id)).toBe(false);
    });

    it.each(['', '   ', 'x'.repeat(5000)])('an odd key id (%j) is not_found without harm', async (id) => {
      expect((await errorOf(keys.revoke(acme.id, id))).code).toBe('not_found');
    });
  });

  describe('roll', () => {
    it.each([
      [0, 'revoked'],
      [3600, 'expiring'],
      [86_400, 'expiring'],
      [604_800, 'expiring'],
    ] as const)(
      'overlap %i s: a new key at once, the old one expires then (%s), in one write',
      async (overlap, oldState) => {
        const { key: oldKey, info } = await keys.create(acme.id, 'rolling');
        const before = await keysVersion();
        const rolled = await keys.roll(acme.id, info.id, overlap);
        expect(isWellFormedKey(rolled.key)).toBe(true);
        expect(rolled.key).not.toBe(oldKey);
        expect(rolled.info).toMatchObject({
          name: 'rolling',
          state: 'active',
          expiresAt: null,
          rolledTo: null,
        });
        expect(rolled.old).toMatchObject({
          id: info.id,
          state: oldState,
          expiresAt: new Date(T0 + overlap * 1000).toISOString(),
          rolledTo: rolled.info.id,
          revokedAt: overlap === 0 ? new Date(T0).toISOString() : null,
        });
        // One bump for the whole roll: it was one transaction.
        expect(await keysVersion()).toBe(before + 1);
        const found = await store.keys.findByHash(hashKey(oldKey));
        expect(found).toMatchObject({ revoked: overlap === 0, expiresAtMs: T0 + overlap * 1000 });
        expect((await store.keys.findByHash(hashKey(rolled.key)))?.expiresAtMs).toBeNull();
      },
    );

    it('the old key is expiring until its expiry, then expired (the list says so)', async () => {
      const { info } = await keys.create(acme.id, 'soon');
      const rolled = await keys.roll(acme.id, info.id, 3600);
      const state = async () => (await keys.list(acme.id)).find((k) => k.id === info.id)?.state;
      expect(await state()).toBe('expiring');
      clock.advance(HOUR_MS - 1);
      expect(await state()).toBe('expiring');
      clock.advance(1);
      expect(await state()).toBe('expired');
      expect((await keys.list(acme.id)).find((k) => k.id === rolled.info.id)?.state).toBe('active');
      // Rolling the expired key again, or revoking it twice over, is refused or harmless.
      expect((await errorOf(keys.roll(acme.id, info.id, 3600))).code).toBe('conflict');
      clock.set(T0);
    });

    it.each([60, -1, 1.5, Number.NaN, '3600', null, 3600.0001])(
      'refuses the overlap %j (invalid_parameter naming `overlap`), writing nothing',
      async (overlap) => {
        const { info } = await keys.create(acme.id, null);
        const before = await keysVersion();
        const err = await errorOf(keys.roll(acme.id, info.id, overlap as unknown as RollOverlap));
        expect(err.code).toBe('invalid_parameter');
        expect(err.details).toEqual({ parameter: 'overlap' });
        expect(err.message).toMatch(/0, 3600, 86400, 604800/);
        expect(await keysVersion()).toBe(before);
        expect(await row(info.id)).toMatchObject({ expires_at: null, rolled_to: null, revoked_at: null });
      },
    );

    it('a revoked key and an already rolled key cannot be rolled (conflict, nothing written)', async () => {
      const { info: revoked } = await keys.create(acme.id, null);
      await keys.revoke(acme.id, revoked.id);
      const { info: rolled } = await keys.create(acme.id, null);
      const first = await keys.roll(acme.id, rolled.id, 86_400);
      const count = (await keys.list(acme.id)).length;
      const before = await keysVersion();
      expect((await errorOf(keys.roll(acme.id, revoked.id, 3600))).code).toBe('conflict');
      expect((await errorOf(keys.roll(acme.id, rolled.id, 3600))).code).toBe('conflict');
      expect(await keysVersion()).toBe(before);
      expect(await keys.list(acme.id)).toHaveLength(count);
      expect((await row(rolled.id))?.rolled_to).toBe(first.info.id);
    });

    it('two concurrent rolls of one key: exactly one new key', async () => {
      const { info } = await keys.create(acme.id, 'race');
      const count = (await keys.list(acme.id)).length;
      const results = await Promise.allSettled([
        keys.roll(acme.id, info.id, 3600),
        keys.roll(acme.id, info.id, 3600),
        keys.roll(acme.id, info.id, 86_400),
      ]);
      const ok = results.filter((r) => r.status === 'fulfilled');
      expect(ok).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect((r.reason as DomainError).code).toBe('conflict');
      expect(await keys.list(acme.id)).toHaveLength(count + 1);
    });

    it('a revoked rolled key (revoked during its overlap) states revoked', async () => {
      const { info } = await keys.create(acme.id, null);
      await keys.roll(acme.id, info.id, 604_800);
      expect((await keys.revoke(acme.id, info.id)).state).toBe('revoked');
    });
  });

  describe('list', () => {
    it('shows the last use: the stored hours and what is counted but not flushed yet', async () => {
      const { info: a } = await keys.create(zeta.id, 'used');
      const { info: b } = await keys.create(zeta.id, 'unused');
      meter.counted(a.id, 'b', T0 - 5_000);
      await meter.flush();
      expect((await keys.list(zeta.id)).find((k) => k.id === a.id)?.lastUsedAt).toBe(
        new Date(T0 - 5_000).toISOString(),
      );
      meter.limited(a.id, 'a', T0 - 1_000); // a 429 is a use too; not flushed yet
      const listed = await keys.list(zeta.id);
      expect(listed.find((k) => k.id === a.id)?.lastUsedAt).toBe(new Date(T0 - 1_000).toISOString());
      expect(listed.find((k) => k.id === b.id)?.lastUsedAt).toBeNull();
    });

    it('lists only the account’s own keys, oldest first', async () => {
      const list = await keys.list(zeta.id);
      expect(list.every((k) => k.accountId === zeta.id)).toBe(true);
      const created = list.map((k) => k.createdAt);
      expect([...created].sort()).toEqual(created);
      expect(await keys.list(424_242)).toEqual([]);
    });
  });
});

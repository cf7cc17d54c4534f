import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import { DomainError } from '../../../src/core/errors.ts';
import { displayPrefix, generateKey, hashKey } from '../../../src/core/keys/api-key.ts';
import { createKey, listKeys, revokeKey } from '../../../src/core/keys/manage-keys.ts';
import type { OpenedStore } from '../../../src/storage/open-store.ts';
import { type FreshStore, openFreshStore } from '../../storage/support.ts';
import { DIALECTS } from '../../support/databases.ts';

/** Resolves to the DomainError code a promise rejects with (fails if it resolves or throws anything else). */
async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe.each(DIALECTS)('key management on a real store (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    await createAccount(store, { name: 'owner', plan: 'enterprise' });
  });
  afterAll(async () => fresh?.close());

  describe('createAccount', () => {
    it.each(['a', 'Acme', 'Acme Research Ltd.', 'x_y-z.1', '9lives', 'A'.repeat(100)])(
      'accepts the name %j',
      async (name) => {
        const acct = await createAccount(store, { name, plan: 'pro' });
        expect(acct).toMatchObject({ name, plan: 'pro' });
        expect(await store.accounts.findByName(name)).toEqual(acct);
      },
    );

    it.each([
      '',
      ' leading',
      '-dash-first',
      '.dot',
      '_under',
      'A'.repeat(101),
      'semi;colon',
      'slash/name',
      'tab\tname',
      'new\nline',
      'émigré',
      'quote"',
    ])('refuses the name %j as invalid_parameter', async (name) => {
      expect(await codeOf(createAccount(store, { name, plan: 'pro' }))).toBe('invalid_parameter');
      expect(await store.accounts.findByName(name)).toBeNull();
    });

    it('refuses a duplicate name as a conflict, leaving the first account as it was', async () => {
      const first = await createAccount(store, { name: 'dupe', plan: 'free' });
      const err = await createAccount(store, { name: 'dupe', plan: 'enterprise' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code: 'conflict', message: expect.stringContaining('dupe') });
      expect(await store.accounts.findByName('dupe')).toEqual(first);
    });

    it('stores custom limits', async () => {
      expect(
        await createAccount(store, { name: 'customer', plan: 'custom', rateLimitA: 5, rateLimitB: 7 }),
      ).toMatchObject({
        rateLimitA: 5,
        rateLimitB: 7,
      });
    });
  });

  describe('createKey and listKeys', () => {
    it('returns the plaintext once and stores only its hash and display prefix', async () => {
      const { key, info } = await createKey(store, 'owner', 'laptop');
      expect(info).toMatchObject({ name: 'laptop', prefix: displayPrefix(key), revokedAt: null });
      const raw = await store.kysely
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', info.id)
        .executeTakeFirstOrThrow();
      expect(raw.hash).toBe(hashKey(key));
      expect(Object.values(raw)).not.toContain(key);
      expect((await listKeys(store, 'owner')).map((k) => k.id)).toContain(info.id);
    });

    it('refuses an unknown account (not_found) and a label over 100 characters (invalid_parameter)', async () => {
      expect(await codeOf(createKey(store, 'nobody', null))).toBe('not_found');
      expect(await codeOf(createKey(store, 'owner', 'x'.repeat(101)))).toBe('invalid_parameter');
      expect(await codeOf(listKeys(store, 'nobody'))).toBe('not_found');
      expect((await createKey(store, 'owner', 'x'.repeat(100))).info.name).toHaveLength(100);
    });
  });

  describe('revokeKey', () => {
    it('revokes by key id', async () => {
      const { info } = await createKey(store, 'owner', null);
      const revoked = await revokeKey(store, info.id);
      expect(revoked).toMatchObject({ id: info.id, revokedAt: expect.any(String) });
      expect((await store.keys.findForRevocation({ id: info.id }))[0]?.revokedAt).not.toBeNull();
    });

    it('revokes by display prefix (trimmed)', async () => {
      const { info } = await createKey(store, 'owner', null);
      expect((await revokeKey(store, `  ${info.prefix} `)).id).toBe(info.id);
    });

    it('revokes by the full key', async () => {
      const { key, info } = await createKey(store, 'owner', null);
      expect((await revokeKey(store, key)).id).toBe(info.id);
      expect((await store.keys.findByHash(hashKey(key)))?.revoked).toBe(true);
    });

    it('refuses a second revocation as a conflict', async () => {
      const { key, info } = await createKey(store, 'owner', null);
      await revokeKey(store, info.id);
      expect(await codeOf(revokeKey(store, info.id))).toBe('conflict');
      expect(await codeOf(revokeKey(store, key))).toBe('conflict');
    });

    it('refuses a prefix that names two live keys, then accepts it once only one is live', async () => {
      const owner = (await store.accounts.findByName('owner'))!;
      const a = generateKey();
      const b = generateKey();
      const prefix = 'prk_live_Twin';
      await store.keys.insert({ id: a.id, accountId: owner.id, name: null, prefix, hash: a.hash });
      await store.keys.insert({ id: b.id, accountId: owner.id, name: null, prefix, hash: b.hash });
      const err = await revokeKey(store, prefix).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'conflict', message: expect.stringContaining('2 keys') });
      expect((await store.keys.findForRevocation({ prefix })).every((k) => k.revokedAt === null)).toBe(true);

      await revokeKey(store, a.id);
      expect((await revokeKey(store, prefix)).id).toBe(b.id);
    });

    it.each([
      ['an unknown id', 'key_00000000000000000000'],
      ['an unknown prefix', 'prk_live_Zzzz'],
      ['a partial prefix', 'prk_live_Ab'],
      ['an unknown well-formed key', () => generateKey().key],
      ['an empty reference', ''],
    ])('reports %s as not_found', async (_name, ref) => {
      expect(await codeOf(revokeKey(store, typeof ref === 'function' ? ref() : ref))).toBe('not_found');
    });

    it('reports a longer string that is neither id, prefix nor key as not_found (no database error)', async () => {
      const { key } = await createKey(store, 'owner', null);
      expect(await codeOf(revokeKey(store, `${key.slice(0, 20)}-not-a-key`))).toBe('not_found');
      expect(await codeOf(revokeKey(store, 'prk_live_Ab12 and more'))).toBe('not_found');
    });
  });
});

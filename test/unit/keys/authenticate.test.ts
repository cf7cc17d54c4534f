import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/core/accounts/manage-accounts.ts';
import type { Account } from '../../../src/core/accounts/model.ts';
import { generateKey, KEY_PREFIX } from '../../../src/core/keys/api-key.ts';
import { KeyAuthenticator } from '../../../src/core/keys/authenticate.ts';
import { createKey } from '../../../src/core/keys/manage-keys.ts';
import type { OpenedStore } from '../../../src/storage/open-store.ts';
import { type FreshStore, openFreshStore } from '../../storage/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { countingKeyStore } from './support.ts';

describe.each(DIALECTS)('KeyAuthenticator on a real store (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let account: Account;
  let key: string;
  let keyId: string;
  let spy: ReturnType<typeof countingKeyStore>;
  let auth: KeyAuthenticator;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    account = await createAccount(store, {
      name: 'Acme Research',
      plan: 'custom',
      rateLimitA: 100,
      rateLimitB: 2000,
    });
    const created = await createKey(store, 'Acme Research', 'ci');
    key = created.key;
    keyId = created.info.id;
  });
  afterAll(async () => fresh?.close());
  beforeEach(() => {
    spy = countingKeyStore(store.keys);
    auth = new KeyAuthenticator(spy);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
  ])('%s is missing, without asking the store', async (_name, header) => {
    expect(await auth.authenticate(header)).toEqual({ ok: false, reason: 'missing' });
    expect(spy.total()).toBe(0);
  });

  it.each([
    ['Basic scheme', () => `Basic ${key}`],
    ['no scheme', () => key],
    ['scheme only', () => 'Bearer'],
    ['scheme and space only', () => 'Bearer '],
    ['short key', () => `Bearer ${key.slice(0, -1)}`],
    ['long key', () => `Bearer ${key}A`],
    ['wrong prefix', () => `Bearer prk_test_${key.slice(KEY_PREFIX.length)}`],
    ['non-base62 character', () => `Bearer ${key.slice(0, -1)}-`],
    ['two tokens', () => `Bearer ${key} ${key}`],
    ['no space after the scheme', () => `Bearer${key}`],
  ])('%s is malformed, without asking the store', async (_name, header) => {
    expect(await auth.authenticate(header())).toEqual({ ok: false, reason: 'malformed' });
    expect(spy.total()).toBe(0);
  });

  it('resolves a valid key to its principal with one lookup, then from memory', async () => {
    const expected = {
      ok: true,
      principal: {
        keyId,
        accountId: account.id,
        accountName: 'Acme Research',
        plan: 'custom',
        rateLimitA: 100,
        rateLimitB: 2000,
        expiresAtMs: null,
      },
    };
    expect(await auth.authenticate(`Bearer ${key}`)).toEqual(expected);
    expect(await auth.authenticate(`Bearer ${key}`)).toEqual(expected);
    expect(spy.calls.findByHash).toBe(1);
    expect(spy.total()).toBe(1);
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])(
    'accepts the scheme spelled %s, and extra spaces',
    async (scheme) => {
      expect((await auth.authenticate(`${scheme} ${key}`)).ok).toBe(true);
      expect((await auth.authenticate(`${scheme}   ${key}  `)).ok).toBe(true);
    },
  );

  it('reports an unknown well-formed key, asking the store only once', async () => {
    const stranger = generateKey().key;
    expect(await auth.authenticate(`Bearer ${stranger}`)).toEqual({ ok: false, reason: 'unknown' });
    expect(await auth.authenticate(`Bearer ${stranger}`)).toEqual({ ok: false, reason: 'unknown' });
    expect(spy.calls.findByHash).toBe(1);
  });

  it('sees a key created after it was remembered as unknown once invalidated', async () => {
    const k = generateKey();
    expect((await auth.authenticate(`Bearer ${k.key}`)).ok).toBe(false);
    await store.keys.insert({ id: k.id, accountId: account.id, name: null, prefix: k.prefix, hash: k.hash });
    expect(await auth.authenticate(`Bearer ${k.key}`)).toEqual({ ok: false, reason: 'unknown' });
    auth.invalidate();
    expect(await auth.authenticate(`Bearer ${k.key}`)).toMatchObject({
      ok: true,
      principal: { keyId: k.id },
    });
  });

  it('reports a revoked key as revoked', async () => {
    const { key: doomed, info } = await createKey(store, 'Acme Research', null);
    await store.keys.revoke(info.id);
    expect(await auth.authenticate(`Bearer ${doomed}`)).toEqual({ ok: false, reason: 'revoked' });
    expect(await auth.authenticate(`Bearer ${doomed}`)).toEqual({ ok: false, reason: 'revoked' });
    expect(spy.calls.findByHash).toBe(1);
  });

  it('makes a revocation visible after invalidate(), not before', async () => {
    const { key: live, info } = await createKey(store, 'Acme Research', null);
    expect((await auth.authenticate(`Bearer ${live}`)).ok).toBe(true);
    await store.keys.revoke(info.id);
    expect((await auth.authenticate(`Bearer ${live}`)).ok).toBe(true); // still cached
    auth.invalidate();
    expect(await auth.authenticate(`Bearer ${live}`)).toEqual({ ok: false, reason: 'revoked' });
    expect(spy.calls.findByHash).toBe(2);
  });

  it('answers a repeated header from memory, and spelling the scheme differently still resolves the key', async () => {
    const first = await auth.authenticate(`Bearer ${key}`);
    expect(first).toMatchObject({ ok: true, principal: { keyId } });
    expect(auth.authenticateCached(`Bearer ${key}`)).toBe(first);
    expect(auth.authenticateCached(`bearer   ${key}`)).toBe(first);
    expect(spy.total()).toBe(1);
  });

  it('forgets header-cached keys on invalidate(), so a revocation shows on the next request', async () => {
    const other = await createKey(store, 'Acme Research', 'header-cache');
    const header = `Bearer ${other.key}`;
    expect(await auth.authenticate(header)).toMatchObject({ ok: true });
    expect(auth.authenticateCached(header)).toMatchObject({ ok: true });
    await store.keys.revoke(other.info.id);
    auth.invalidate();
    expect(await auth.authenticate(header)).toEqual({ ok: false, reason: 'revoked' });
    expect(auth.authenticateCached(header)).toEqual({ ok: false, reason: 'revoked' });
  });
});

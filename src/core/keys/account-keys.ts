import { type Clock, isoTime } from '../clock.ts';
import { DomainError, invalidParameter } from '../errors.ts';
import type { AccountStore, KeyStore } from '../ports.ts';
import type { UsagePending, UsageStore } from '../usage/ports.ts';
import { generateKey } from './api-key.ts';
import { keyName } from './key-name.ts';
import {
  type AccountKey,
  type AccountKeysService,
  type KeyState,
  ROLL_OVERLAPS,
  type RollOverlap,
  type StoredAccountKey,
} from './model.ts';

export interface AccountKeysDeps {
  accounts: Pick<AccountStore, 'findById'>;
  keys: KeyStore;
  /** Where "last used" comes from: the flushed hours… */
  usage: Pick<UsageStore, 'lastUsed'>;
  /** …and what this process counted but has not flushed yet (none in a process that serves no API). */
  pending?: UsagePending;
  clock: Clock;
}

/**
 * Live keys (active or expiring) an account may hold: enough for every environment and service of
 * a customer, and a bound on what one account's pages and key caches hold. A roll may pass it by
 * one until the old key expires.
 */
export const MAX_LIVE_KEYS = 100;

/** Key ids are `key_` and 20 characters; anything much longer is no key of anyone's, asked or not. */
const KEY_ID_MAX_LENGTH = 64;

/** A key's state at `nowMs`: revoked wins; a rolled key is expiring until its expiry, then expired. */
export function keyState(k: StoredAccountKey, nowMs: number): KeyState {
  if (k.revokedAt !== null) return 'revoked';
  if (k.expiresAt !== null) return Date.parse(k.expiresAt) <= nowMs ? 'expired' : 'expiring';
  return 'active';
}

/** Whether a key still answers requests at `nowMs`. */
export const isLive = (k: StoredAccountKey, nowMs: number): boolean => {
  const state = keyState(k, nowMs);
  return state === 'active' || state === 'expiring';
};

/**
 * An account's own keys (the dashboard; decision 0006, "Keys: roll and revoke"). Every method is
 * scoped by the account: another account's key id is not_found, exactly like a missing one. Every
 * change is one transaction that bumps the keys version, so it holds on the next request on every
 * instance; a rolled key's expiry needs no such moment, as each request compares it with the time.
 */
export class AccountKeys implements AccountKeysService {
  constructor(private readonly deps: AccountKeysDeps) {}

  async list(accountId: number): Promise<AccountKey[]> {
    const keys = await this.deps.keys.listAccountKeys(accountId);
    if (keys.length === 0) return [];
    const lastUsed = await this.lastUsed(accountId, keys);
    const now = this.deps.clock.now();
    return keys.map((k) => present(k, now, lastUsed.get(k.id)));
  }

  async create(accountId: number, name: string | null): Promise<{ key: string; info: AccountKey }> {
    const label = keyName(name);
    if (!Number.isSafeInteger(accountId) || !(await this.deps.accounts.findById(accountId)))
      throw new DomainError('not_found', 'The account does not exist.');
    const now = this.deps.clock.now();
    // Checked before the write, not under a lock: concurrent creates may pass it by a few.
    const live = (await this.deps.keys.listAccountKeys(accountId)).filter((k) => isLive(k, now)).length;
    if (live >= MAX_LIVE_KEYS)
      throw new DomainError(
        'conflict',
        `An account holds at most ${MAX_LIVE_KEYS} live keys; revoke one it no longer uses first.`,
      );
    const k = generateKey();
    const info = await this.deps.keys.insert({
      id: k.id,
      accountId,
      name: label,
      prefix: k.prefix,
      hash: k.hash,
      createdAt: isoTime(now),
    });
    const stored: StoredAccountKey = { ...info, expiresAt: null, rolledTo: null };
    return { key: k.key, info: present(stored, now, undefined) };
  }

  async revoke(accountId: number, keyId: string): Promise<AccountKey> {
    const found = await this.find(accountId, keyId);
    if (found.revokedAt !== null) throw new DomainError('conflict', `Key ${found.id} is already revoked.`);
    const now = this.deps.clock.now();
    const revoked = await this.deps.keys.revokeAccountKey(accountId, found.id, isoTime(now));
    // Revoked meanwhile by another request: the same answer as above.
    if (!revoked) throw new DomainError('conflict', `Key ${found.id} is already revoked.`);
    return present(revoked, now, (await this.lastUsed(accountId, [revoked])).get(revoked.id));
  }

  async roll(
    accountId: number,
    keyId: string,
    overlapSeconds: RollOverlap,
  ): Promise<{ key: string; info: AccountKey; old: AccountKey }> {
    // Checked before anything is read: a bad choice changes nothing and says what is allowed.
    if (!(ROLL_OVERLAPS as readonly unknown[]).includes(overlapSeconds))
      throw invalidParameter(
        'overlap',
        `must be one of ${ROLL_OVERLAPS.join(', ')} (seconds: now, 1 hour, 24 hours, 7 days).`,
      );
    const found = await this.find(accountId, keyId);
    if (found.revokedAt !== null) throw new DomainError('conflict', `Key ${found.id} is revoked.`);
    if (found.rolledTo !== null)
      throw new DomainError('conflict', `Key ${found.id} was already rolled (to ${found.rolledTo}).`);
    const now = this.deps.clock.now();
    const k = generateKey();
    const rolled = await this.deps.keys.roll({
      accountId,
      keyId: found.id,
      next: { id: k.id, name: found.name, prefix: k.prefix, hash: k.hash },
      nowIso: isoTime(now),
      expiresAtIso: isoTime(now + overlapSeconds * 1000),
      revokeNow: overlapSeconds === 0,
    });
    // Revoked or rolled by another request between the read and the write: nothing was written.
    if (!rolled) throw new DomainError('conflict', `Key ${found.id} was revoked or rolled meanwhile.`);
    const lastUsed = await this.lastUsed(accountId, [rolled.old]);
    return {
      key: k.key,
      info: present(rolled.created, now, undefined),
      old: present(rolled.old, now, lastUsed.get(rolled.old.id)),
    };
  }

  /** The account's key, or not_found for a missing key and another account's alike. */
  private async find(accountId: number, keyId: string): Promise<StoredAccountKey> {
    const id = typeof keyId === 'string' ? keyId.trim() : '';
    const found =
      id !== '' && id.length <= KEY_ID_MAX_LENGTH && Number.isSafeInteger(accountId)
        ? await this.deps.keys.findAccountKey(accountId, id)
        : null;
    if (!found)
      throw new DomainError('not_found', `No key '${id.slice(0, KEY_ID_MAX_LENGTH)}' in this account.`);
    return found;
  }

  /** Last use per key: the store's, or a later one counted here and not yet flushed. */
  private async lastUsed(accountId: number, keys: readonly StoredAccountKey[]): Promise<Map<string, number>> {
    const stored = await this.deps.usage.lastUsed(accountId);
    const pending = this.deps.pending?.pending(new Set(keys.map((k) => k.id))) ?? [];
    for (const row of pending) {
      if (row.lastAt !== null && row.lastAt > (stored.get(row.keyId) ?? 0)) stored.set(row.keyId, row.lastAt);
    }
    return stored;
  }
}

const present = (k: StoredAccountKey, nowMs: number, lastUsedMs: number | undefined): AccountKey => ({
  ...k,
  lastUsedAt: lastUsedMs === undefined ? null : isoTime(lastUsedMs),
  state: keyState(k, nowMs),
});

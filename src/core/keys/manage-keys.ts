import { DomainError } from '../errors.ts';
import type { AccountStore, KeyStore } from '../ports.ts';
import { displayPrefix, generateKey, hashKey, isWellFormedKey } from './api-key.ts';
import { keyName } from './key-name.ts';
import type { ApiKeyInfo } from './model.ts';

export interface KeyDeps {
  accounts: AccountStore;
  keys: KeyStore;
}

/** Creates a key; the plaintext is returned here once and never stored. */
export async function createKey(
  deps: KeyDeps,
  accountName: string,
  label: string | null,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const account = await deps.accounts.findByName(accountName);
  if (!account) throw new DomainError('not_found', `Account '${accountName}' does not exist.`);
  const name = keyName(label);
  const k = generateKey();
  const info = await deps.keys.insert({
    id: k.id,
    accountId: account.id,
    name,
    prefix: k.prefix,
    hash: k.hash,
  });
  return { key: k.key, info };
}

export async function listKeys(deps: KeyDeps, accountName: string): Promise<ApiKeyInfo[]> {
  const account = await deps.accounts.findByName(accountName);
  if (!account) throw new DomainError('not_found', `Account '${accountName}' does not exist.`);
  return deps.keys.listForAccount(account.id);
}

/** Revokes by key id, display prefix or the full key. A prefix that names two keys is refused. */
export async function revokeKey(deps: KeyDeps, ref: string): Promise<ApiKeyInfo> {
  const r = ref.trim();
  let lookup: { hash?: string; id?: string; prefix?: string };
  if (isWellFormedKey(r)) lookup = { hash: hashKey(r) };
  else if (r.startsWith('key_')) lookup = { id: r };
  else if (r.startsWith('prk_live_') && displayPrefix(r) === r) lookup = { prefix: r };
  else throw new DomainError('not_found', `No key matches '${r.slice(0, 20)}'.`);
  const found = await deps.keys.findForRevocation(lookup);
  if (found.length === 0) throw new DomainError('not_found', `No key matches '${r.slice(0, 20)}'.`);
  const live = found.filter((k) => k.revokedAt === null);
  if (live.length === 0) throw new DomainError('conflict', `Key ${found[0]!.id} is already revoked.`);
  if (live.length > 1)
    throw new DomainError('conflict', `'${r}' matches ${live.length} keys; use the key id.`);
  const revoked = await deps.keys.revoke(live[0]!.id);
  if (!revoked) throw new DomainError('conflict', `Key ${live[0]!.id} is already revoked.`);
  return revoked;
}

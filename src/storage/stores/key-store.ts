import type { Kysely, Selectable } from 'kysely';
import type { Account, Plan } from '../../core/accounts/model.ts';
import type { ChangeSignal } from '../../core/catalog/change-signal.ts';
import type { ApiKeyInfo, Principal, StoredAccountKey } from '../../core/keys/model.ts';
import type { AccountStore, KeyStore } from '../../core/ports.ts';
import type { DialectCapabilities } from '../dialect.ts';
import type { AccountsTable, ApiKeysTable, Database } from '../schema.ts';
import { bumpVersion } from './state-store.ts';

export const toAccount = (r: Selectable<AccountsTable>): Account => ({
  id: r.id,
  name: r.name,
  plan: r.plan as Plan,
  rateLimitA: r.rate_limit_a,
  rateLimitB: r.rate_limit_b,
  createdAt: r.created_at,
});

const toKeyInfo = (r: Selectable<ApiKeysTable>): ApiKeyInfo => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

const toStoredKey = (r: Selectable<ApiKeysTable>): StoredAccountKey => ({
  ...toKeyInfo(r),
  expiresAt: r.expires_at,
  rolledTo: r.rolled_to,
});

export class KyselyAccountStore implements AccountStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
    private readonly signal: ChangeSignal,
  ) {}

  async create(input: {
    name: string;
    plan: Plan;
    rateLimitA?: number | null;
    rateLimitB?: number | null;
  }): Promise<Account> {
    const now = new Date().toISOString();
    const account = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('accounts')
        .values({
          name: input.name,
          plan: input.plan,
          rate_limit_a: input.rateLimitA ?? null,
          rate_limit_b: input.rateLimitB ?? null,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await bumpVersion(trx, this.caps, 'keys', now);
      return toAccount(row);
    });
    this.signal.mark();
    return account;
  }

  async findByName(name: string): Promise<Account | null> {
    const row = await this.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async findById(id: number): Promise<Account | null> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async list(): Promise<Account[]> {
    return (await this.db.selectFrom('accounts').selectAll().orderBy('name').execute()).map(toAccount);
  }
}

export class KyselyKeyStore implements KeyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly caps: DialectCapabilities,
    private readonly signal: ChangeSignal,
  ) {}

  async insert(input: {
    id: string;
    accountId: number;
    name: string | null;
    prefix: string;
    hash: string;
    createdAt?: string;
  }): Promise<ApiKeyInfo> {
    const now = input.createdAt ?? new Date().toISOString();
    const info = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('api_keys')
        .values({
          id: input.id,
          account_id: input.accountId,
          name: input.name,
          prefix: input.prefix,
          hash: input.hash,
          created_at: now,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await bumpVersion(trx, this.caps, 'keys', now);
      return toKeyInfo(row);
    });
    this.signal.mark();
    return info;
  }

  async findByHash(hash: string): Promise<(Principal & { revoked: boolean }) | null> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select([
        'k.id as keyId',
        'k.revoked_at as revokedAt',
        'k.expires_at as expiresAt',
        'a.id as accountId',
        'a.name as accountName',
        'a.plan as plan',
        'a.rate_limit_a as rateLimitA',
        'a.rate_limit_b as rateLimitB',
      ])
      .where('k.hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      keyId: row.keyId,
      accountId: row.accountId,
      accountName: row.accountName,
      plan: row.plan as Plan,
      rateLimitA: row.rateLimitA,
      rateLimitB: row.rateLimitB,
      expiresAtMs: row.expiresAt === null ? null : Date.parse(row.expiresAt),
      revoked: row.revokedAt !== null,
    };
  }

  async listForAccount(accountId: number): Promise<ApiKeyInfo[]> {
    return (await this.accountRows(accountId)).map(toKeyInfo);
  }

  /** An account's keys, oldest first (the CLI's list and the dashboard's). */
  private accountRows(accountId: number) {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async findForRevocation(ref: { id?: string; prefix?: string; hash?: string }): Promise<ApiKeyInfo[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(ref.id ? [eb('id', '=', ref.id)] : []),
          ...(ref.prefix ? [eb('prefix', '=', ref.prefix)] : []),
          ...(ref.hash ? [eb('hash', '=', ref.hash)] : []),
        ]),
      )
      .execute();
    return rows.map(toKeyInfo);
  }

  async revoke(id: string, nowIso?: string): Promise<ApiKeyInfo | null> {
    const row = await this.revokeRow(id, null, nowIso ?? new Date().toISOString());
    return row ? toKeyInfo(row) : null;
  }

  /**
   * The one revocation: the key (of this account, when given) loses its life in the transaction
   * that bumps the keys version, so every cache drops it on its next request.
   */
  private async revokeRow(id: string, accountId: number | null, now: string) {
    const revoked = await this.db.transaction().execute(async (trx) => {
      let q = trx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id);
      if (accountId !== null) q = q.where('account_id', '=', accountId);
      const row = await q.where('revoked_at', 'is', null).returningAll().executeTakeFirst();
      if (!row) return null;
      await bumpVersion(trx, this.caps, 'keys', now);
      return row;
    });
    if (revoked) this.signal.mark();
    return revoked;
  }

  async listAccountKeys(accountId: number): Promise<StoredAccountKey[]> {
    return (await this.accountRows(accountId)).map(toStoredKey);
  }

  async findAccountKey(accountId: number, keyId: string): Promise<StoredAccountKey | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', keyId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? toStoredKey(row) : null;
  }

  async revokeAccountKey(accountId: number, keyId: string, nowIso: string): Promise<StoredAccountKey | null> {
    const row = await this.revokeRow(keyId, accountId, nowIso);
    return row ? toStoredKey(row) : null;
  }

  async roll(input: {
    accountId: number;
    keyId: string;
    next: { id: string; name: string | null; prefix: string; hash: string };
    nowIso: string;
    expiresAtIso: string;
    revokeNow: boolean;
  }): Promise<{ old: StoredAccountKey; created: StoredAccountKey } | null> {
    const { nowIso, next } = input;
    const rolled = await this.db.transaction().execute(async (trx) => {
      // The conditions are the roll's preconditions, checked under the write lock: of two concurrent
      // rolls of one key, one updates the row and the other finds nothing to update.
      const old = await trx
        .updateTable('api_keys')
        .set({
          expires_at: input.expiresAtIso,
          rolled_to: next.id,
          ...(input.revokeNow ? { revoked_at: nowIso } : {}),
        })
        .where('id', '=', input.keyId)
        .where('account_id', '=', input.accountId)
        .where('revoked_at', 'is', null)
        .where('rolled_to', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!old) return null;
      const created = await trx
        .insertInto('api_keys')
        .values({
          id: next.id,
          account_id: input.accountId,
          name: next.name,
          prefix: next.prefix,
          hash: next.hash,
          created_at: nowIso,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await bumpVersion(trx, this.caps, 'keys', nowIso);
      return { old: toStoredKey(old), created: toStoredKey(created) };
    });
    if (rolled) this.signal.mark();
    return rolled;
  }
}

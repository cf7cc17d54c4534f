import { type Kysely, sql, type Transaction } from 'kysely';
import type { LinkPurpose, User, UserRole } from '../../core/users/model.ts';
import type {
  LinkRow,
  RemoveMemberOutcome,
  SessionRow,
  StoredUser,
  UserStore,
} from '../../core/users/ports.ts';
import type { Database } from '../schema.ts';
import { selectUsers, toStoredUser } from './user-row.ts';

const publicOf = ({ passwordHash: _h, failedSignIns: _f, lockedUntil: _l, ...user }: StoredUser): User =>
  user;

/** Users and their one-time links (core/users/ports.ts). Only hashes of tokens are stored. */
export class KyselyUserStore implements UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findByEmail(email: string): Promise<StoredUser | null> {
    const row = await selectUsers(this.db).where('u.email', '=', email).executeTakeFirst();
    return row ? toStoredUser(row) : null;
  }

  async findById(id: number): Promise<StoredUser | null> {
    return byId(this.db, id);
  }

  async list(filter: { accountId?: number } = {}): Promise<User[]> {
    let q = selectUsers(this.db);
    if (filter.accountId !== undefined) q = q.where('u.account_id', '=', filter.accountId);
    const rows = await q.orderBy('u.email').execute();
    return rows.map((r) => publicOf(toStoredUser(r)));
  }

  async create(input: {
    email: string;
    accountId: number | null;
    role: UserRole;
    invitedBy: string;
    createdAt: string;
    link: LinkRow;
  }): Promise<StoredUser | null> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('users')
          .values({
            email: input.email,
            account_id: input.accountId,
            role: input.role,
            password_hash: null,
            locked_until: null,
            disabled_at: null,
            created_at: input.createdAt,
            last_sign_in_at: null,
            invited_by: input.invitedBy,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertLink(trx, Number(id), input.link);
        return byId(trx, Number(id));
      });
    } catch (err) {
      // The unique email: a concurrent invitation of the same address committed first.
      if (await this.findByEmail(input.email)) return null;
      throw err;
    }
  }

  async issueLink(userId: number, link: LinkRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // A newer link supersedes the user's older unused ones: only the last printed one works.
      await trx.deleteFrom('user_links').where('user_id', '=', userId).where('used_at', 'is', null).execute();
      await insertLink(trx, userId, link);
    });
  }

  async findLink(
    tokenHash: string,
  ): Promise<{ link: LinkRow & { usedAt: string | null }; user: StoredUser } | null> {
    const link = await this.db
      .selectFrom('user_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!link) return null;
    const user = await byId(this.db, Number(link.user_id));
    if (!user) return null;
    return {
      link: {
        tokenHash: link.token_hash,
        purpose: link.purpose as LinkPurpose,
        createdAt: link.created_at,
        expiresAt: link.expires_at,
        usedAt: link.used_at,
      },
      user,
    };
  }

  async acceptLink(input: {
    tokenHash: string;
    nowIso: string;
    passwordHash: string;
    session: Omit<SessionRow, 'userId'>;
  }): Promise<StoredUser | null> {
    const { nowIso } = input;
    return this.db.transaction().execute(async (trx) => {
      // The one statement that decides: of two concurrent follows, one marks the link used and the
      // other finds no unused row (PostgreSQL re-checks the condition after the first commits;
      // SQLite runs one writer at a time).
      const used = await trx
        .updateTable('user_links')
        .set({ used_at: nowIso })
        .where('token_hash', '=', input.tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', nowIso)
        .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('disabled_at', 'is', null))
        .returning('user_id')
        .executeTakeFirst();
      if (!used) return null;
      const userId = Number(used.user_id);
      await trx
        .updateTable('users')
        .set({
          password_hash: input.passwordHash,
          failed_sign_ins: 0,
          locked_until: null,
          last_sign_in_at: nowIso,
        })
        .where('id', '=', userId)
        .execute();
      // A new password ends every session opened with the old one (a reset after a theft).
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await trx
        .insertInto('sessions')
        .values(sessionValues({ ...input.session, userId }))
        .execute();
      return byId(trx, userId);
    });
  }

  async chargeSignIn(
    userId: number,
    threshold: number,
    nowIso: string,
    lockUntilIso: string,
  ): Promise<boolean> {
    // SET expressions read the row as it was before this update, on both backends; the WHERE makes a
    // locked user's attempt change nothing. ISO times compare as text.
    const expired = sql<boolean>`(locked_until is not null and locked_until <= ${nowIso})`;
    const next = sql<number>`(case when ${expired} then 1 else failed_sign_ins + 1 end)`;
    const row = await this.db
      .updateTable('users')
      .set({
        failed_sign_ins: sql<number>`(case when ${next} >= ${threshold} then 0 else ${next} end)`,
        locked_until: sql<
          string | null
        >`(case when ${next} >= ${threshold} then ${lockUntilIso} when ${expired} then null else locked_until end)`,
      })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .execute();
  }

  async disable(userId: number, nowIso: string): Promise<StoredUser | null> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ disabled_at: nowIso })
        .where('id', '=', userId)
        .where('disabled_at', 'is', null)
        .execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_links').where('user_id', '=', userId).where('used_at', 'is', null).execute();
      return byId(trx, userId);
    });
  }

  async removeMember(accountId: number, userId: number): Promise<RemoveMemberOutcome> {
    return this.db.transaction().execute(async (trx) => {
      // A write to the account's row first: PostgreSQL locks it until commit (a concurrent removal
      // in the same account waits here, then sees this one), and SQLite takes its write lock at once.
      await trx
        .updateTable('accounts')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', accountId)
        .execute();
      const target = await trx
        .selectFrom('users')
        .select(['id', 'role', 'disabled_at'])
        .where('id', '=', userId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!target) return 'not_found';
      if (target.role === 'owner' && target.disabled_at === null) {
        const others = await trx
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('account_id', '=', accountId)
          .where('role', '=', 'owner')
          .where('disabled_at', 'is', null)
          .where('id', '!=', userId)
          .executeTakeFirstOrThrow();
        if (Number(others.n) === 0) return 'last_owner';
      }
      // Sessions and links go with the user (ON DELETE CASCADE); deleted explicitly as well, so
      // nothing depends on the connection's foreign-key setting.
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_links').where('user_id', '=', userId).execute();
      await trx.deleteFrom('users').where('id', '=', userId).execute();
      return 'removed';
    });
  }

  async purgeLinks(nowIso: string): Promise<number> {
    const r = await this.db
      .deleteFrom('user_links')
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', nowIso)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

async function byId(db: Kysely<Database> | Transaction<Database>, id: number): Promise<StoredUser | null> {
  const row = await selectUsers(db).where('u.id', '=', id).executeTakeFirst();
  return row ? toStoredUser(row) : null;
}

async function insertLink(trx: Transaction<Database>, userId: number, link: LinkRow): Promise<void> {
  await trx
    .insertInto('user_links')
    .values({
      token_hash: link.tokenHash,
      user_id: userId,
      purpose: link.purpose,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
      used_at: null,
    })
    .execute();
}

export const sessionValues = (s: SessionRow) => ({
  id_hash: s.idHash,
  user_id: s.userId,
  csrf_token: s.csrfToken,
  created_at: s.createdAt,
  last_seen_at: s.lastSeenAt,
  expires_at: s.expiresAt,
  address: s.address,
  user_agent: s.userAgent,
});

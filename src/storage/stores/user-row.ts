import type { Kysely, Transaction } from 'kysely';
import type { Plan } from '../../core/accounts/model.ts';
import type { UserRole } from '../../core/users/model.ts';
import type { StoredUser } from '../../core/users/ports.ts';
import type { Database } from '../schema.ts';

/** The users table joined with its account (null for operators): what every user read selects. */
export function selectUsers(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('users as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .select([
      'u.id',
      'u.email',
      'u.account_id',
      'u.role',
      'u.password_hash',
      'u.failed_sign_ins',
      'u.locked_until',
      'u.disabled_at',
      'u.created_at',
      'u.last_sign_in_at',
      'u.invited_by',
      'a.name as account_name',
      'a.plan as account_plan',
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['executeTakeFirstOrThrow']>>;

export const toStoredUser = (r: UserRow): StoredUser => ({
  id: Number(r.id),
  email: r.email,
  role: r.role as UserRole,
  account:
    r.account_id === null || r.account_name === null
      ? null
      : { id: Number(r.account_id), name: r.account_name, plan: r.account_plan as Plan },
  hasPassword: r.password_hash !== null,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  lastSignInAt: r.last_sign_in_at,
  invitedBy: r.invited_by,
  passwordHash: r.password_hash,
  failedSignIns: Number(r.failed_sign_ins),
  lockedUntil: r.locked_until,
});
